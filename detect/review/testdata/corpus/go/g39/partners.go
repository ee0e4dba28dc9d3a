// Calls to partners with net/http and stripe-go: POSTs with no idempotency
// key repeat; a Stripe customer created with an idempotency key from the
// order is refused the second time; a page read whole is returned into the
// history.
package main

import (
	"bytes"
	"io/ioutil"
	"net/http"
	"net/url"

	"github.com/dapr/durabletask-go/workflow"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/customer"
	"github.com/stripe/stripe-go/v82/paymentintent"
)

var partner = &http.Client{}

func input(ctx workflow.ActivityContext) string {
	var id string
	_ = ctx.GetInput(&id)
	return id
}

func NotifyPartner(ctx workflow.ActivityContext) (any, error) {
	resp, err := http.Post("https://partner.example.com/orders", "application/json", bytes.NewBufferString(input(ctx))) // want: unkeyed-side-effect
	if err != nil {
		return nil, err
	}
	return resp.Status, resp.Body.Close()
}

func SubscribeNewsletter(ctx workflow.ActivityContext) (any, error) {
	resp, err := http.PostForm("https://news.example.com/subscribe", url.Values{"email": {input(ctx)}}) // want: unkeyed-side-effect
	if err != nil {
		return nil, err
	}
	return resp.Status, resp.Body.Close()
}

func NotifyCarrier(ctx workflow.ActivityContext) (any, error) {
	resp, err := partner.Post("https://carrier.example.com/pickups", "application/json", bytes.NewBufferString(input(ctx))) // want: unkeyed-side-effect
	if err != nil {
		return nil, err
	}
	return resp.Status, resp.Body.Close()
}

func FetchTerms(ctx workflow.ActivityContext) (any, error) {
	resp, err := http.Get("https://partner.example.com/terms")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := ioutil.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return string(body), nil // want: large-payload
}

func CreateCustomer(ctx workflow.ActivityContext) (any, error) {
	orderID := input(ctx)
	params := &stripe.CustomerParams{Email: stripe.String(orderID + "@example.com")}
	params.SetIdempotencyKey("customer-" + orderID)
	c, err := customer.New(params)
	if err != nil {
		return nil, err
	}
	return c.ID, nil
}

func ChargeDeposit(ctx workflow.ActivityContext) (any, error) {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(500), Currency: stripe.String("usd")}
	pi, err := paymentintent.New(params) // want: unkeyed-side-effect
	if err != nil {
		return nil, err
	}
	return pi.ID, nil
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(NotifyPartner)
	_ = r.AddActivity(SubscribeNewsletter)
	_ = r.AddActivity(NotifyCarrier)
	_ = r.AddActivity(FetchTerms)
	_ = r.AddActivity(CreateCustomer)
	_ = r.AddActivity(ChargeDeposit)
}
