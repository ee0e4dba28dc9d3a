package review

import "github.com/twice-cli/twice/detect"

// Stripe's SDKs: stripe-python (stripe.X.create), stripe-go (the
// resource packages' New, Capture, Confirm) and Stripe.net (the
// services' Create, Capture, Confirm). Every creating call accepts an
// idempotency key: stripe-python's idempotency_key keyword,
// stripe-go's Params.IdempotencyKey / SetIdempotencyKey, Stripe.net's
// RequestOptions.IdempotencyKey; Stripe returns the first request's
// result for a repeated key.
func libStripe() library {
	const refuses = "Stripe returns the first request's result for a repeated Idempotency-Key"
	return library{
		name:   "Stripe",
		source: "stripe/stripe-python (stripe/_api_requestor.py: idempotency_key), stripe/stripe-go (params.go: SetIdempotencyKey), stripe/stripe-dotnet (RequestOptions.IdempotencyKey)",
		modules: map[Lang][]string{
			LangPython: {"stripe"},
			LangGo:     {"github.com/stripe/"},
			LangCSharp: {"Stripe"},
		},
		rows: []api{
			{lang: LangCSharp, ref: "Stripe.", methods: []string{"Create", "CreateAsync", "Capture", "CaptureAsync", "Confirm", "ConfirmAsync"},
				kind: effPost, what: "Stripe {ref}", twice: "charges twice", severity: detect.SeverityHigh, refuses: refuses, key: arg(-1, "IdempotencyKey")},
			{ref: "stripe.", methods: []string{"create", "Create", "CREATE", "capture", "confirm"}, fold: true,
				kind: effPost, what: "Stripe {ref}", twice: "charges twice", severity: detect.SeverityHigh, refuses: refuses, key: arg(-1, "idempotency_key")},
			{ref: "github.com/stripe/stripe-go*", methods: []string{"New", "Capture", "Confirm"},
				kind: effPost, what: "Stripe {fn}", twice: "charges twice", severity: detect.SeverityHigh, refuses: refuses, key: arg(-1, "IdempotencyKey")},
			{methods: []string{"SetIdempotencyKey", "set_idempotency_key"}, kind: kindKeySetter, key: arg(0, ""), keyName: "{m}", idem: true, refuses: refuses},
		},
	}
}
