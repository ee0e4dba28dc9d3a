// Sends an SMS through Twilio with no dedupe record.
package main

import (
	"github.com/dapr/durabletask-go/workflow"
	"github.com/twilio/twilio-go"
	openapi "github.com/twilio/twilio-go/rest/api/v2010"
)

type Text struct {
	To   string
	Body string
}

var client = twilio.NewRestClient()

func SendDeliverySMS(ctx workflow.ActivityContext) (any, error) {
	var t Text
	if err := ctx.GetInput(&t); err != nil {
		return nil, err
	}
	params := &openapi.CreateMessageParams{}
	params.SetTo(t.To)
	params.SetFrom("+15550001111")
	params.SetBody(t.Body)
	msg, err := client.Api.CreateMessage(params) // want: unkeyed-side-effect
	if err != nil {
		return nil, err
	}
	return *msg.Sid, nil
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(SendDeliverySMS)
}
