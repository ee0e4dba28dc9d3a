// corpus: negative (already idempotent)
// negative-for: unkeyed-side-effect
// GORM Create with ON CONFLICT DO NOTHING on the natural key.
package main

import (
	"github.com/dapr/durabletask-go/workflow"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

type Order struct {
	OrderNumber string `gorm:"uniqueIndex"`
	Total       int64
}

var db *gorm.DB

func SaveOrder(ctx workflow.ActivityContext) (any, error) {
	var o Order
	if err := ctx.GetInput(&o); err != nil {
		return nil, err
	}
	err := db.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "order_number"}}, DoNothing: true}).Create(&o).Error
	return o.OrderNumber, err
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(SaveOrder)
}
