// Stock and events kept in several stores: an SQS message and a Kafka
// message with no deduplication id are delivered twice; a Firestore
// increment counts twice; a Redis SET NX, a Dapr save with an etag refuse
// the repeat; a Dapr save of a whole value to its key and a bulk copy are
// idempotent.
package main

import (
	"context"

	"cloud.google.com/go/firestore"
	"github.com/IBM/sarama"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/dapr/durabletask-go/workflow"
	dapr "github.com/dapr/go-sdk/client"
	"github.com/redis/go-redis/v9"
)

var (
	sqsClient *sqs.Client
	producer  sarama.SyncProducer
	fs        *firestore.Client
	rdb       *redis.Client
	state     dapr.Client
)

func sku(ctx workflow.ActivityContext) string {
	var id string
	_ = ctx.GetInput(&id)
	return id
}

func QueueRestock(ctx workflow.ActivityContext) (any, error) {
	_, err := sqsClient.SendMessage(ctx.Context(), &sqs.SendMessageInput{QueueUrl: aws.String("restock"), MessageBody: aws.String(sku(ctx))}) // want: unkeyed-side-effect
	return nil, err
}

func AnnounceRestock(ctx workflow.ActivityContext) (any, error) {
	_, _, err := producer.SendMessage(&sarama.ProducerMessage{Topic: "restock", Value: sarama.StringEncoder(sku(ctx))}) // want: unkeyed-side-effect
	return nil, err
}

func CountView(ctx workflow.ActivityContext) (any, error) {
	_, err := fs.Collection("products").Doc(sku(ctx)).Update(ctx.Context(), []firestore.Update{{Path: "views", Value: firestore.Increment(1)}}) // want: unkeyed-side-effect
	return nil, err
}

func ClaimRestock(ctx workflow.ActivityContext) (any, error) {
	return nil, rdb.SetArgs(ctx.Context(), "restock:"+sku(ctx), "claimed", redis.SetArgs{Mode: "NX"}).Err()
}

func SetLevel(ctx workflow.ActivityContext) (any, error) {
	id := sku(ctx)
	item, err := state.GetStateWithConsistency(context.Background(), "stock", id, nil, dapr.StateConsistencyStrong)
	if err != nil {
		return nil, err
	}
	return nil, state.SaveStateWithETag(context.Background(), "stock", id, []byte("10"), item.Etag, nil)
}

func StoreLevel(ctx workflow.ActivityContext) (any, error) {
	return nil, state.SaveState(context.Background(), "stock", sku(ctx), []byte("10"), nil)
}

func StoreLevelOnce(ctx workflow.ActivityContext) (any, error) {
	return nil, state.SaveState(context.Background(), "stock", sku(ctx), []byte("10"), nil, dapr.WithConcurrency(dapr.StateConcurrencyFirstWrite))
}

func CopyLevelsOnce(ctx workflow.ActivityContext) (any, error) {
	id := sku(ctx)
	item, err := state.GetState(context.Background(), "stock", id, nil)
	if err != nil {
		return nil, err
	}
	return nil, state.SaveBulkState(context.Background(), "stock-archive", &dapr.SetStateItem{Key: id, Value: item.Value, Etag: &dapr.ETag{Value: item.Etag}})
}

func CopyLevels(ctx workflow.ActivityContext) (any, error) {
	items, err := state.GetBulkState(context.Background(), "stock", []string{sku(ctx)}, nil, 4)
	if err != nil {
		return nil, err
	}
	copies := make([]*dapr.SetStateItem, 0, len(items))
	for _, it := range items {
		copies = append(copies, &dapr.SetStateItem{Key: it.Key, Value: it.Value})
	}
	return nil, state.SaveBulkState(context.Background(), "stock-archive", copies...)
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(QueueRestock)
	_ = r.AddActivity(AnnounceRestock)
	_ = r.AddActivity(CountView)
	_ = r.AddActivity(ClaimRestock)
	_ = r.AddActivity(SetLevel)
	_ = r.AddActivity(StoreLevel)
	_ = r.AddActivity(CopyLevels)
	_ = r.AddActivity(StoreLevelOnce)
	_ = r.AddActivity(CopyLevelsOnce)
}
