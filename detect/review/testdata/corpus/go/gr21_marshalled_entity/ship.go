// An activity that loads a shipment with all its parcels and returns it
// serialised whole stores every parcel in the history, where its id is
// what the workflow needs. One that serialises a small record of its own
// input (no collection, nothing fetched) is fine. (Issue 21: the shape of
// a saga step that returns its updated entity as JSON.)
package main

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/dapr/durabletask-go/workflow"
)

type Parcel struct {
	ID     string
	Weight int
}

type Shipment struct {
	ID      string
	Parcels []Parcel
	Status  string
}

type Label struct {
	ShipmentID string
	Carrier    string
}

type store struct{ db *sql.DB }

func (s *store) load(ctx context.Context, id string) (*Shipment, error) {
	sh := &Shipment{ID: id}
	err := s.db.QueryRowContext(ctx, "SELECT status FROM shipments WHERE id = $1", id).Scan(&sh.Status)
	return sh, err
}

func LoadShipment(st *store) workflow.Activity {
	return func(ctx workflow.ActivityContext) (any, error) {
		var id string
		if err := ctx.GetInput(&id); err != nil {
			return nil, err
		}
		sh, err := st.load(ctx.Context(), id)
		if err != nil {
			return nil, err
		}
		out, err := json.Marshal(sh)
		if err != nil {
			return nil, err
		}
		return string(out), nil // want: large-payload
	}
}

func MakeLabel(ctx workflow.ActivityContext) (any, error) {
	var l Label
	if err := ctx.GetInput(&l); err != nil {
		return nil, err
	}
	l.Carrier = "post"
	out, err := json.Marshal(l)
	if err != nil {
		return nil, err
	}
	return string(out), nil
}

func main() {
	st := &store{}
	r := workflow.NewRegistry()
	_ = r.AddActivityN("LoadShipment", LoadShipment(st))
	_ = r.AddActivity(MakeLabel)
}
