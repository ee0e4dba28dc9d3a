package review

import "strings"

// Retry libraries and waits: a retry library's entry point retries inside
// the activity body, invisible to the history; a sleep in a loop that
// handles a failure is a retry written by hand (loops in rules.go).
func libRetry() library {
	retry := func(ref string, entries ...string) api { return api{ref: ref, methods: entries, kind: kindRetry} }
	sleep := func(ref string, funcs ...string) api { return api{ref: ref, methods: funcs, kind: kindSleep} }
	// Polly's entry points are chained (Policy.Handle<E>().WaitAndRetry…):
	// rules.go reads the chain; these names are the static ones.
	anyEntry := []string{"Do", "DoWithData", "Retry", "RetryNotify", "RetryWithData", "RetryNotifyWithData",
		"OnError", "RetryOnConflict", "NewClient", "Get", "Run", "With", "retry", "Retrying", "AsyncRetrying", "retry_call", "retry_context"}
	return library{
		name:   "Retry libraries and waits",
		source: "jd/tenacity, litl/backoff, hynek/stamina, invl/retry, urllib3 Retry; avast/retry-go, cenkalti/backoff, sethvargo/go-retry, k8s.io/client-go/util/retry, hashicorp/go-retryablehttp, failsafe-go; App-vNext/Polly",
		modules: map[Lang][]string{
			LangPython: {"tenacity", "backoff", "asyncio", "retrying", "retry", "stamina", "urllib3"},
			LangGo:     {"github.com/avast/", "github.com/cenkalti/"},
			LangCSharp: {"Polly"},
		},
		rows: []api{
			// Python.
			retry("tenacity.", "retry", "Retrying", "AsyncRetrying"),
			retry("backoff.", "on_exception", "on_predicate"),
			retry("retrying.", "retry"),
			retry("retry.", "retry", "retry_call"),
			retry("urllib3.", "Retry"),
			retry("requests.adapters.", "Retry"),
			retry("stamina.", "retry", "retry_context"),
			// Go.
			retry("github.com/avast/retry-go*", "Do", "DoWithData"),
			retry("github.com/cenkalti/backoff*", "Retry", "RetryNotify", "RetryWithData", "RetryNotifyWithData"),
			retry("github.com/sethvargo/go-retry.", anyEntry...),
			retry("k8s.io/client-go/util/retry.", "OnError", "RetryOnConflict"),
			retry("github.com/hashicorp/go-retryablehttp.", anyEntry...),
			retry("github.com/failsafe-go/failsafe-go.", anyEntry...),
			// .NET: Polly v8's pipeline builder, and the chained calls that add
			// a retry to a v7 policy (Policy.Handle<E>().WaitAndRetryAsync(…))
			// or a v8 pipeline (new ResiliencePipelineBuilder().AddRetry(…)).
			retry("Polly.", "ResiliencePipelineBuilder"),
			{lang: LangCSharp, methods: []string{"Retry", "RetryAsync", "RetryForever", "RetryForeverAsync", "WaitAndRetry", "WaitAndRetryAsync",
				"WaitAndRetryForever", "WaitAndRetryForeverAsync", "AddRetry"}, when: func(c *libCall) bool {
				r := chainRoot(c.Expr)
				return r != nil && strings.HasPrefix(r.Ref, "Polly.")
			}, kind: kindRetryBuilder, what: "a Polly retry"},
			// Waits.
			sleep("time.", "sleep", "Sleep", "After"),
			sleep("asyncio.", "sleep"),
			sleep("System.Threading.", "Delay", "Sleep"),

			{methods: []string{"Sleep", "sleep", "Wait", "Execute", "ExecuteAsync"}, kind: kindNeutral},
		},
	}
}
