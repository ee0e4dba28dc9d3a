package review

// Logging, printing and tracing: Python's logging and structlog, Go's
// log, fmt, logrus and zap, .NET's ILogger, Serilog and Console,
// OpenTelemetry's spans. Never a write the review must see.
func libLogging() library {
	return library{
		name:   "Logging",
		source: "Python logging (Logger.info…), structlog; Go log, log/slog, fmt, sirupsen/logrus, uber-go/zap; .NET Microsoft.Extensions.Logging LoggerExtensions (LogInformation…), Serilog, System.Console; open-telemetry/opentelemetry-python (Tracer.start_as_current_span), opentelemetry-go (Tracer.Start), System.Diagnostics.ActivitySource.StartActivity",
		modules: map[Lang][]string{
			LangPython: {"logging", "structlog", "opentelemetry"},
			LangGo:     {"github.com/sirupsen/logrus", "go.uber.org/", "go.opentelemetry.io/"},
			LangCSharp: {"Serilog", "OpenTelemetry"},
		},
		rows: []api{
			{methods: []string{"info", "debug", "warning", "error", "exception", "critical", "log",
				"Info", "Debug", "Warn", "Error", "Errorf", "Infof", "Debugf", "Warnf", "Printf", "Println", "Print", "Sprintf", "Log", "Logf",
				"LogInformation", "LogWarning", "LogError", "LogDebug", "LogCritical", "LogTrace"}, kind: kindNeutral},
			{lang: LangCSharp, methods: []string{"WriteLine", "Write"}, recv: []string{"console"}, kind: kindNeutral},
			// A span starts and ends in the process.
			{methods: []string{"start_as_current_span", "start_span", "StartActivity", "StartSpan", "add_event", "set_attribute", "SetAttributes", "record_exception",
				"get_span_context", "get_current_span", "set_status", "SpanFromContext", "SpanContext"}, kind: kindNeutral},
		},
	}
}
