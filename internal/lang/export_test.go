package lang

// For the external tests (package lang_test), which may import the
// packages that import lang (rules).
var (
	ReadRules    = readRules
	RulesLocales = locales
)
