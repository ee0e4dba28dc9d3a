package review

// Logging and printing: Python's logging and structlog, Go's log, fmt,
// logrus and zap, .NET's ILogger and Serilog. Never a write the review
// must see.
func libLogging() library {
	return library{
		name:   "Logging",
		source: "Python logging (Logger.info…), structlog; Go log, log/slog, fmt, sirupsen/logrus, uber-go/zap; .NET Microsoft.Extensions.Logging LoggerExtensions (LogInformation…), Serilog",
		modules: map[Lang][]string{
			LangPython: {"logging", "structlog"},
			LangGo:     {"github.com/sirupsen/logrus", "go.uber.org/"},
			LangCSharp: {"Serilog"},
		},
		rows: []api{
			{methods: []string{"info", "debug", "warning", "error", "exception", "critical", "log",
				"Info", "Debug", "Warn", "Error", "Errorf", "Infof", "Debugf", "Warnf", "Printf", "Println", "Print", "Sprintf", "Log", "Logf",
				"LogInformation", "LogWarning", "LogError", "LogDebug", "LogCritical", "LogTrace"}, kind: kindNeutral},
		},
	}
}
