// Credits a wallet with UPDATE … SET balance = balance + $1.
package main

import (
	"database/sql"

	"github.com/dapr/durabletask-go/workflow"
)

var db *sql.DB

type Credit struct {
	WalletID string
	Cents    int64
}

func CreditWallet(ctx workflow.ActivityContext) (any, error) {
	var c Credit
	if err := ctx.GetInput(&c); err != nil {
		return nil, err
	}
	_, err := db.ExecContext(ctx.Context(), "UPDATE wallets SET balance = balance + $1 WHERE id = $2", c.Cents, c.WalletID) // want: unkeyed-side-effect
	return nil, err
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(CreditWallet)
}
