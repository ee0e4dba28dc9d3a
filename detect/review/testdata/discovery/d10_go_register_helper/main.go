package main

import (
	"net/http"

	"github.com/dapr/durabletask-go/task"
)

func Greet(ctx task.ActivityContext) (any, error) {
	return "hi", nil
}

func NewAudit(topic string) task.Activity {
	return func(ctx task.ActivityContext) (any, error) { return topic, nil }
}

func main() {
	http.HandleFunc("/Greet", hostActivity(Greet))
	http.HandleFunc("/Audit", hostActivity(NewAudit("audit")))
	_ = http.ListenAndServe(":8080", nil)
}
