// GORM Create with an auto-increment key: a second run inserts a second
// order.
package main

import (
	"github.com/dapr/durabletask-go/workflow"
	"gorm.io/gorm"
)

type Order struct {
	ID         uint
	CustomerID string
	Total      int64
}

type Store struct{ db *gorm.DB }

func (s *Store) SaveOrder(ctx workflow.ActivityContext) (any, error) {
	var o Order
	if err := ctx.GetInput(&o); err != nil {
		return nil, err
	}
	if err := s.db.Create(&o).Error; err != nil { // want: unkeyed-side-effect
		return nil, err
	}
	return o.ID, nil
}

func main() {
	s := &Store{}
	r := workflow.NewRegistry()
	_ = r.AddActivityN("SaveOrder", s.SaveOrder)
}
