package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// readConfig reads serve's --config file: TOML, one top-level key per
// flag, named as the flag (imap-user = "referee@example.org", poll = "2m",
// once = true, max-games = 10). Every key must be a setting and every value
// of the setting's type; anything else is refused with its line number,
// never guessed at. It returns each setting's value as the flag's text,
// ready for flag.Set, and the line it is on.
func readConfig(fs *flag.FlagSet, path string) (map[string]string, map[string]int, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("--config: %w", err)
	}
	var raw map[string]any
	if _, err := toml.Decode(string(text), &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			if hint := legacyHint(fs, string(text)); hint != "" {
				return nil, nil, fmt.Errorf("%s line %d: %s\n%s", path, pe.Position.Line, pe.Message, hint)
			}
			return nil, nil, fmt.Errorf("%s line %d: %s; the config file is TOML: name = \"text\", name = 10, name = true, \"#\" starts a comment (docs/operating.md#configuration)", path, pe.Position.Line, pe.Message)
		}
		return nil, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	vals := map[string]string{}
	lines := map[string]int{}
	for k, v := range raw {
		line := keyLine(string(text), k)
		f := fs.Lookup(k)
		if f == nil || k == "config" {
			return nil, nil, fmt.Errorf("%s line %d: %q is not a setting; the names are serve's flags without the dashes (imap, smtp-user, poll, ...: referee serve --help)", path, line, k)
		}
		s, err := tomlValue(f, v)
		if err != nil {
			return nil, nil, fmt.Errorf("%s line %d: %s: %w", path, line, k, err)
		}
		vals[k], lines[k] = s, line
	}
	return vals, lines, nil
}

// tomlValue turns a TOML value into the flag's text, refusing a value of
// another type than the flag's: a string for text and durations, an
// integer for numbers, true or false for switches.
func tomlValue(f *flag.Flag, v any) (string, error) {
	get, _ := f.Value.(flag.Getter)
	var want any
	if get != nil {
		want = get.Get()
	}
	switch want.(type) {
	case bool:
		if b, ok := v.(bool); ok {
			return strconv.FormatBool(b), nil
		}
		return "", fmt.Errorf("%s is a switch: write true or false, without quotes", tomlShow(v))
	case int, int64, uint, uint64:
		if n, ok := v.(int64); ok {
			return strconv.FormatInt(n, 10), nil
		}
		return "", fmt.Errorf("%s is not a whole number: write it without quotes, e.g. %s = 10", tomlShow(v), f.Name)
	case time.Duration:
		if s, ok := v.(string); ok {
			if _, err := time.ParseDuration(s); err != nil {
				return "", fmt.Errorf("%q is not a duration: write it as \"90s\", \"5m\" or \"1h\"", s)
			}
			return s, nil
		}
		return "", fmt.Errorf("%s is not a duration: write it in quotes with its unit, e.g. %s = \"1m\"", tomlShow(v), f.Name)
	}
	if s, ok := v.(string); ok {
		return s, nil
	}
	return "", fmt.Errorf("%s is not text: write it in double quotes, e.g. %s = \"...\"", tomlShow(v), f.Name)
}

func tomlShow(v any) string {
	switch v.(type) {
	case map[string]any:
		return "a table"
	case []any, []map[string]any:
		return "a list"
	}
	return fmt.Sprintf("%v", v)
}

// keyLine is the line on which key is set at the top level of text (1 if
// it cannot be told).
func keyLine(text, key string) int {
	re := regexp.MustCompile(`^\s*(` + regexp.QuoteMeta(key) + `|"` + regexp.QuoteMeta(key) + `"|'` + regexp.QuoteMeta(key) + `')\s*=`)
	for i, l := range strings.Split(text, "\n") {
		if re.MatchString(l) {
			return i + 1
		}
	}
	return 1
}

// legacyHint recognises the old config format ("name = value" lines, the
// value unquoted, where "# ..." and quotes became part of the value) and
// says how to write the same settings in TOML; "" when text is not in
// that format. Password values are not repeated.
func legacyHint(fs *flag.FlagSet, text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		f := fs.Lookup(k)
		if !ok || f == nil {
			return ""
		}
		v = strings.Trim(v, `"`)
		value := strconv.Quote(v)
		if get, ok := f.Value.(flag.Getter); ok {
			switch get.Get().(type) {
			case bool, int:
				value = v
			}
		}
		if strings.Contains(k, "pass") && !strings.HasSuffix(k, "-file") && !strings.HasSuffix(k, "-cmd") {
			value = `"..." (your password, in double quotes)`
		}
		out = append(out, "  "+k+" = "+value)
	}
	if len(out) == 0 {
		return ""
	}
	return "This is the old \"name = value\" format, in which \"# ...\" and quotes became part of a value. " +
		"The config file is now TOML: put text and durations in double quotes, leave numbers and true/false bare, " +
		"and check any value that had a \"#\" in it (docs/operating.md#configuration). Your settings in TOML:\n" + strings.Join(out, "\n")
}
