// A helper cuts a fresh UUID into a short suffix, and the activity names
// the bucket it creates with it when the input gives none: every attempt
// creates another bucket. (Issue 21: the shape of a provisioning service
// that names roles and databases with a generated suffix.)
package provision

import (
	"context"
	"strings"

	"github.com/dapr/go-sdk/client"
	"github.com/dapr/go-sdk/workflow"
	"github.com/google/uuid"
)

func suffix() string {
	return strings.ReplaceAll(uuid.NewString(), "-", "")[:8]
}

type BucketRequest struct {
	Prefix string `json:"prefix"`
	Name   string `json:"name"`
}

func CreateBucket(ctx workflow.ActivityContext) (any, error) {
	var req BucketRequest
	if err := ctx.GetInput(&req); err != nil {
		return nil, err
	}
	name := req.Name
	if name == "" {
		name = req.Prefix + "-" + suffix()
	}
	dc, err := client.NewClient()
	if err != nil {
		return nil, err
	}
	if err := dc.SaveState(context.Background(), "buckets", name, []byte("{}"), nil); err != nil { // want: key-generated-in-body
		return nil, err
	}
	return name, nil
}

func Register(r *workflow.WorkflowWorker) error {
	return r.RegisterActivity(CreateBucket)
}
