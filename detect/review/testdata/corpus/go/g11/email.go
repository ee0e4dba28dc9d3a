// Sends the receipt over SMTP with no dedupe record.
package main

import (
	"fmt"
	"net/smtp"

	"github.com/dapr/durabletask-go/workflow"
)

type Receipt struct {
	OrderID string
	Email   string
}

func SendReceipt(ctx workflow.ActivityContext) (any, error) {
	var r Receipt
	if err := ctx.GetInput(&r); err != nil {
		return nil, err
	}
	msg := []byte(fmt.Sprintf("Subject: Your order %s\r\n\r\nThanks!", r.OrderID))
	auth := smtp.PlainAuth("", "shop", "secret", "smtp.example.com")
	if err := smtp.SendMail("smtp.example.com:587", auth, "shop@example.com", []string{r.Email}, msg); err != nil { // want: unkeyed-side-effect
		return nil, err
	}
	return nil, nil
}

func main() {
	reg := workflow.NewRegistry()
	_ = reg.AddActivity(SendReceipt)
}
