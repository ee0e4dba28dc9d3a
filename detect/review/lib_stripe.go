package review

import (
	"strings"

	"github.com/twice-cli/twice/detect"
)

// Stripe's SDKs, every resource: stripe-python (stripe.X.create),
// stripe-go (the resource packages' New, Capture, Confirm) and Stripe.net
// (every XService's Create, Capture, Confirm). Every creating call
// accepts an idempotency key: stripe-python's idempotency_key keyword,
// stripe-go's Params.IdempotencyKey / SetIdempotencyKey, Stripe.net's
// RequestOptions.IdempotencyKey; Stripe returns the first request's
// result for a repeated key. What a second run does is the resource's:
// a payment charges twice, a refund refunds twice, a customer is created
// a second time. A billing meter event is deduplicated by its own
// Identifier; a price whose lookup key is taken is refused. List, search
// and retrieve read (a list-then-create is check-then-act).
func libStripe() library {
	const refuses = "Stripe returns the first request's result for a repeated Idempotency-Key"
	const meterRefuses = "Stripe drops a meter event whose identifier it saw in the last 24 hours"
	const lookupRefuses = "Stripe refuses a second price whose lookup key is already in use"
	creates := []string{"Create", "CreateAsync", "create", "New"}
	money := func(resources ...string) func(c *libCall) bool {
		return func(c *libCall) bool { return stripeCall(c.ref) && stripeResource(c.ref, resources...) }
	}
	other := func(c *libCall) bool {
		return stripeCall(c.ref) && !stripeResource(c.ref, "PaymentIntent", "Charge", "Refund", "Payout", "Transfer", "MeterEvent", "Invoice")
	}
	any := func(c *libCall) bool { return stripeCall(c.ref) }
	return library{
		name: "Stripe",
		source: "stripe/stripe-python (stripe/_api_requestor.py: idempotency_key; _customer.py, _payment_intent.py: create, list, search), " +
			"stripe/stripe-go (params.go: SetIdempotencyKey; customer/client.go: New, List), " +
			"stripe/stripe-dotnet v47 (RequestOptions.IdempotencyKey; Services/Customers/CustomerService.cs: CreateAsync, ListAsync; Billing/MeterEventCreateOptions.Identifier; PriceCreateOptions.LookupKey)",
		modules: map[Lang][]string{
			LangPython: {"stripe"},
			LangGo:     {"github.com/stripe/"},
			LangCSharp: {"Stripe"},
		},
		rows: []api{
			// Money moves: a second run charges, refunds or pays out again.
			{fold: true, methods: []string{"Create", "CreateAsync", "New", "Confirm", "ConfirmAsync", "Capture", "CaptureAsync", "Pay", "PayAsync"},
				when: money("PaymentIntent", "Charge", "Invoice"),
				kind: effPost, what: "Stripe {short}", twice: "charges twice", severity: detect.SeverityHigh, refuses: refuses, key: arg(-1, "idempotency_key")},
			{fold: true, methods: creates, when: money("Refund"),
				kind: effPost, what: "Stripe {short}", twice: "refunds twice", severity: detect.SeverityHigh, refuses: refuses, key: arg(-1, "idempotency_key")},
			{fold: true, methods: creates, when: money("Payout", "Transfer"),
				kind: effPost, what: "Stripe {short}", twice: "pays out twice", severity: detect.SeverityHigh, refuses: refuses, key: arg(-1, "idempotency_key")},
			// Usage: a meter event is deduplicated by its Identifier.
			{fold: true, methods: creates, when: money("MeterEvent"),
				kind: effPost, what: "Stripe {short}", twice: "bills the usage twice", refuses: meterRefuses, key: arg(-1, "Identifier"), keyName: "Identifier"},
			// A price with a lookup key: a second one is refused.
			{fold: true, methods: creates, when: func(c *libCall) bool {
				return stripeCall(c.ref) && stripeResource(c.ref, "Price") && stripeOption(c, "LookupKey", "lookup_key")
			},
				kind: effGuard, what: "Stripe {short} with a lookup key", refuses: lookupRefuses},
			// Every other resource: a second run creates a second one.
			{fold: true, methods: creates, when: other,
				kind: effPost, what: "Stripe {short}", twice: "creates a second {noun}", refuses: refuses, key: arg(-1, "idempotency_key")},
			// Reads: a list or search then a create is check-then-act.
			{fold: true, methods: []string{"List", "ListAsync", "Search", "SearchAsync", "Get", "GetAsync", "Retrieve", "ListAutoPaging", "ListAutoPagingAsync"}, when: any,
				kind: effRead, what: "Stripe {short}"},
			{methods: []string{"SetIdempotencyKey", "set_idempotency_key"}, kind: kindKeySetter, key: arg(0, ""), keyName: "{m}", idem: true, refuses: refuses},
		},
	}
}

// stripeCall reports whether a resolved name is in a Stripe SDK.
func stripeCall(ref string) bool {
	return strings.HasPrefix(ref, "Stripe.") || strings.HasPrefix(ref, "stripe.") || strings.HasPrefix(ref, "github.com/stripe/stripe-go")
}

// stripeResource reports whether a Stripe call's resolved name acts on
// one of the resources: Stripe.net's PaymentIntentService,
// stripe-python's stripe.PaymentIntent, stripe-go's paymentintent
// package.
func stripeResource(ref string, resources ...string) bool {
	owner := refOwner(ref)
	for _, r := range resources {
		if strings.EqualFold(owner, r) {
			return true
		}
	}
	return false
}

// stripeOption reports whether a Stripe call sets an option, in its
// arguments or in the options object a variable holds.
func stripeOption(c *libCall, names ...string) bool {
	has := func(k string) bool {
		for _, n := range names {
			if k == n {
				return true
			}
		}
		return false
	}
	return anyKey(c.Expr, has) || heldKey(c.Expr, has, c.values)
}
