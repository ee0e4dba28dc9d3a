package review_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/golang"
)

func TestScratch(t *testing.T) {
	dir := os.Getenv("SCRATCH")
	if dir == "" {
		t.Skip()
	}
	rep, err := review.Review(context.Background(), []string{dir}, review.Options{Frontends: []review.Frontend{golang.Frontend{}}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(rep, "", " ")
	t.Log(string(b))
}
