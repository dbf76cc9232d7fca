package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/emersion/go-sasl"
)

// Mechanism names.
const (
	XOAuth2     = "XOAUTH2"
	OAuthBearer = sasl.OAuthBearer
)

// Client is a SASL client for a bearer token that remembers why the server
// refused it. Both mechanisms answer a refusal with a JSON challenge that
// the client must acknowledge; the server then fails the command, and
// Rejection tells what the JSON said.
type Client interface {
	sasl.Client
	// Rejection is the server's JSON error, if it sent one, in a form fit
	// for an error message ("" when it sent none).
	Rejection() string
}

// NewClient returns the SASL client for mech (XOAuth2 or OAuthBearer, any
// case) logging in as user with token; host and port are those of the
// server (OAUTHBEARER sends them; 0 omits the port).
func NewClient(mech, user, host string, port int, token string) (Client, error) {
	switch strings.ToUpper(mech) {
	case XOAuth2:
		return &xoauth2Client{user: user, token: token}, nil
	case OAuthBearer:
		return &bearerClient{inner: sasl.NewOAuthBearerClient(&sasl.OAuthBearerOptions{Username: user, Token: token, Host: host, Port: port})}, nil
	}
	return nil, fmt.Errorf("SASL mechanism %q is not an OAuth one: use %s or %s", mech, XOAuth2, OAuthBearer)
}

// rejection holds the server's error challenge.
type rejection struct {
	mu  sync.Mutex
	msg string
}

func (r *rejection) set(challenge []byte) {
	var e struct {
		Status  string `json:"status"`
		Schemes string `json:"schemes"`
		Scope   string `json:"scope"`
	}
	msg := "the server sent an error challenge that is not JSON"
	if json.Unmarshal(challenge, &e) == nil {
		msg = fmt.Sprintf("the server's OAuth error: status %q", e.Status)
		if e.Scope != "" {
			msg += fmt.Sprintf(", scope %q", e.Scope)
		}
	}
	r.mu.Lock()
	r.msg = msg
	r.mu.Unlock()
}

func (r *rejection) Rejection() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.msg
}

// xoauth2Client speaks XOAUTH2 as Google and Microsoft document it: the
// initial response "user=<user>^Aauth=Bearer <token>^A^A"; on failure the
// server sends a base64 JSON challenge, answered with an empty response.
type xoauth2Client struct {
	user, token string
	rejection
}

func (c *xoauth2Client) Start() (string, []byte, error) {
	return XOAuth2, []byte("user=" + c.user + "\x01auth=Bearer " + c.token + "\x01\x01"), nil
}

func (c *xoauth2Client) Next(challenge []byte) ([]byte, error) {
	c.set(challenge)
	return []byte{}, nil
}

// bearerClient is go-sasl's OAUTHBEARER client, except that it answers the
// server's error challenge with the dummy response RFC 7628 §3.2.3 asks
// for (%x01) instead of giving up mid-exchange, so that the server ends
// the command with its own failure and the connection stays usable.
type bearerClient struct {
	inner sasl.Client
	rejection
}

func (c *bearerClient) Start() (string, []byte, error) { return c.inner.Start() }

func (c *bearerClient) Next(challenge []byte) ([]byte, error) {
	c.set(challenge)
	return []byte{0x01}, nil
}

// NewXOAuth2Server returns a SASL server for XOAUTH2 that passes the user
// and token to check. When check fails the server sends the JSON error
// challenge Google documents ({"status":"401","schemes":"bearer"}), waits
// for the client's empty response, and then fails with check's error. The
// referee's own servers do not need it; tests and tools that stand in for
// a provider do.
func NewXOAuth2Server(check func(user, token string) error) sasl.Server {
	return &xoauth2Server{check: check}
}

type xoauth2Server struct {
	check   func(user, token string) error
	failErr error
	done    bool
}

func (s *xoauth2Server) Next(response []byte) (challenge []byte, done bool, err error) {
	if s.failErr != nil {
		return nil, true, s.failErr
	}
	if s.done {
		return nil, true, sasl.ErrUnexpectedClientResponse
	}
	if response == nil {
		return []byte{}, false, nil // ask for the initial response
	}
	s.done = true
	user, token, ok := parseXOAuth2(response)
	if !ok {
		return nil, true, errors.New("XOAUTH2: malformed initial response; want user=<address>^Aauth=Bearer <token>^A^A")
	}
	if err := s.check(user, token); err != nil {
		s.failErr = err
		return []byte(`{"status":"401","schemes":"bearer"}`), false, nil
	}
	return nil, true, nil
}

// parseXOAuth2 reads "user=<user>\x01auth=Bearer <token>\x01\x01".
func parseXOAuth2(b []byte) (user, token string, ok bool) {
	rest, found := strings.CutSuffix(string(b), "\x01\x01")
	if !found {
		return "", "", false
	}
	for field := range strings.SplitSeq(rest, "\x01") {
		k, v, _ := strings.Cut(field, "=")
		switch k {
		case "user":
			user = v
		case "auth":
			scheme, t, found := strings.Cut(v, " ")
			if !found || !strings.EqualFold(scheme, "Bearer") {
				return "", "", false
			}
			token = t
		}
	}
	return user, token, user != "" && token != ""
}
