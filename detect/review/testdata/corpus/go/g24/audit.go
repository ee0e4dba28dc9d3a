// corpus: negative (already idempotent)
// negative-for: unkeyed-side-effect, key-generated-in-body
// Writes the audit record to an object key derived from the event id
// instead of appending.
package main

import (
	"bytes"
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/dapr/durabletask-go/workflow"
)

type AuditEvent struct {
	ID   string `json:"id"`
	Body string `json:"body"`
}

var s3c *s3.Client

func WriteAuditRecord(ctx workflow.ActivityContext) (any, error) {
	var ev AuditEvent
	if err := ctx.GetInput(&ev); err != nil {
		return nil, err
	}
	_, err := s3c.PutObject(context.Background(), &s3.PutObjectInput{
		Bucket: aws.String("audit"),
		Key:    aws.String("events/" + ev.ID + ".json"),
		Body:   bytes.NewReader([]byte(ev.Body)),
	})
	return nil, err
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(WriteAuditRecord)
}
