package labels

import "github.com/dapr/durabletask-go/workflow"

// PrintLabel is in the shipping module; another module has a labels
// folder too, which must not be taken for it.
func PrintLabel(ctx workflow.ActivityContext) (any, error) {
	return "label", nil
}
