package smtpout

import (
	"errors"
	"fmt"
	"testing"

	"github.com/emersion/go-smtp"
)

// TestIsRateLimit: the servers' "too many messages" answers slow the
// outbox down; other refusals (a full mailbox, an unknown user, a relay
// refused) do not.
func TestIsRateLimit(t *testing.T) {
	e := func(code int, enh smtp.EnhancedCode, msg string) error {
		return &smtp.SMTPError{Code: code, EnhancedCode: enh, Message: msg}
	}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{e(421, smtp.EnhancedCode{4, 7, 0}, "Try again later, closing connection."), true},
		{e(550, smtp.EnhancedCode{5, 4, 5}, "Daily user sending limit exceeded."), true},
		{e(554, smtp.EnhancedCode{5, 2, 0}, "STOREDRV.Submission.Exception:SubmissionQuotaExceededException"), true},
		{e(451, smtp.EnhancedCode{4, 7, 1}, "Sender rate limit exceeded"), true},
		{e(452, smtp.EnhancedCode{4, 5, 3}, "Too many recipients"), true},
		{fmt.Errorf("sending: %w", &SessionError{Err: e(421, smtp.EnhancedCode{4, 7, 0}, "Too many connections")}), true},
		{e(452, smtp.EnhancedCode{4, 3, 1}, "Insufficient system storage"), false},
		{e(550, smtp.EnhancedCode{5, 1, 1}, "User unknown"), false},
		{e(554, smtp.EnhancedCode{5, 7, 1}, "Relay access denied"), false},
		{e(535, smtp.EnhancedCode{5, 7, 8}, "Authentication credentials invalid"), false},
		{errors.New("connection reset"), false},
	} {
		if got := IsRateLimit(tc.err); got != tc.want {
			t.Errorf("IsRateLimit(%v) = %v; want %v", tc.err, got, tc.want)
		}
	}
}
