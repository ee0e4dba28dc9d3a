// Receipt ids made from every kind of value that is new on each run: UUIDs
// from gofrs and satori, a ULID, an xid, a KSUID, a short id, nano ids
// from two libraries, a short UUID, random numbers from math/rand and
// crypto/rand. The receipt is stored under a new id on every retry.
package main

import (
	"context"
	crand "crypto/rand"
	"math/rand/v2"

	"github.com/dapr/durabletask-go/workflow"
	gofrs "github.com/gofrs/uuid/v5"
	jnanoid "github.com/jaevor/go-nanoid"
	"github.com/lithammer/shortuuid/v4"
	gonanoid "github.com/matoous/go-nanoid/v2"
	"github.com/oklog/ulid/v2"
	"github.com/rs/xid"
	satori "github.com/satori/go.uuid"
	"github.com/segmentio/ksuid"
	"github.com/teris-io/shortid"
)

type Receipt struct {
	ID    string
	Order string
}

type receiptStore interface {
	Put(ctx context.Context, r Receipt) error
}

var receipts receiptStore

func order(ctx workflow.ActivityContext) string {
	var id string
	_ = ctx.GetInput(&id)
	return id
}

func ReceiptGofrs(ctx workflow.ActivityContext) (any, error) {
	id, _ := gofrs.NewV7()
	return nil, receipts.Put(ctx.Context(), Receipt{ID: id.String(), Order: order(ctx)}) // want: key-generated-in-body
}

func ReceiptSatori(ctx workflow.ActivityContext) (any, error) {
	return nil, receipts.Put(ctx.Context(), Receipt{ID: satori.NewV4().String(), Order: order(ctx)}) // want: key-generated-in-body
}

func ReceiptULID(ctx workflow.ActivityContext) (any, error) {
	return nil, receipts.Put(ctx.Context(), Receipt{ID: ulid.Make().String(), Order: order(ctx)}) // want: key-generated-in-body
}

func ReceiptXID(ctx workflow.ActivityContext) (any, error) {
	return nil, receipts.Put(ctx.Context(), Receipt{ID: xid.New().String(), Order: order(ctx)}) // want: key-generated-in-body
}

func ReceiptKSUID(ctx workflow.ActivityContext) (any, error) {
	return nil, receipts.Put(ctx.Context(), Receipt{ID: ksuid.New().String(), Order: order(ctx)}) // want: key-generated-in-body
}

func ReceiptShortID(ctx workflow.ActivityContext) (any, error) {
	id, _ := shortid.Generate()
	return nil, receipts.Put(ctx.Context(), Receipt{ID: id, Order: order(ctx)}) // want: key-generated-in-body
}

func ReceiptNanoID(ctx workflow.ActivityContext) (any, error) {
	id, _ := gonanoid.New()
	return nil, receipts.Put(ctx.Context(), Receipt{ID: id, Order: order(ctx)}) // want: key-generated-in-body
}

func ReceiptNanoIDGenerator(ctx workflow.ActivityContext) (any, error) {
	gen, _ := jnanoid.Standard(21)
	return nil, receipts.Put(ctx.Context(), Receipt{ID: gen(), Order: order(ctx)}) // want: key-generated-in-body
}

func ReceiptShortUUID(ctx workflow.ActivityContext) (any, error) {
	return nil, receipts.Put(ctx.Context(), Receipt{ID: shortuuid.New(), Order: order(ctx)}) // want: key-generated-in-body
}

func ReceiptRandom(ctx workflow.ActivityContext) (any, error) {
	n := rand.Int64()
	return nil, receipts.Put(ctx.Context(), Receipt{ID: order(ctx) + "-" + string(rune(n)), Order: order(ctx)}) // want: key-generated-in-body
}

func ReceiptCryptoRandom(ctx workflow.ActivityContext) (any, error) {
	return nil, receipts.Put(ctx.Context(), Receipt{ID: crand.Text(), Order: order(ctx)}) // want: key-generated-in-body
}

func main() {
	r := workflow.NewRegistry()
	for _, a := range []workflow.Activity{ReceiptGofrs, ReceiptSatori, ReceiptULID, ReceiptXID, ReceiptKSUID, ReceiptShortID,
		ReceiptNanoID, ReceiptNanoIDGenerator, ReceiptShortUUID, ReceiptRandom, ReceiptCryptoRandom} {
		_ = r.AddActivity(a)
	}
}
