// A helper fetches a URL and decodes the whole body into its
// out-parameter: decoded into a map, the activity returns every field of
// the catalogue page; decoded into a small typed record, it returns what
// the workflow needs.
package main

import (
	"encoding/json"
	"net/http"

	"github.com/dapr/durabletask-go/workflow"
)

type Price struct {
	SKU   string `json:"sku"`
	Cents int64  `json:"cents"`
}

func getJSON(url string, out any) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(out)
}

func FetchCatalogue(ctx workflow.ActivityContext) (any, error) {
	var shop string
	if err := ctx.GetInput(&shop); err != nil {
		return nil, err
	}
	var page map[string]any
	if err := getJSON("https://catalogue.example/shops/"+shop, &page); err != nil {
		return nil, err
	}
	return page, nil // want: large-payload
}

func FetchPrice(ctx workflow.ActivityContext) (any, error) {
	var sku string
	if err := ctx.GetInput(&sku); err != nil {
		return nil, err
	}
	var p Price
	if err := getJSON("https://catalogue.example/prices/"+sku, &p); err != nil {
		return nil, err
	}
	return p, nil
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(FetchCatalogue)
	_ = r.AddActivity(FetchPrice)
}
