// No registry call twice can read (the functions are served through an
// HTTP adapter): the workflow is found by what it calls, the activity by
// the call, both marked inferred. A name nobody defines is unresolved.
package main

import (
	"net/http"

	"github.com/dapr/durabletask-go/task"
)

func GreetAll(ctx *task.OrchestrationContext) (any, error) {
	var a string
	if err := ctx.CallActivity(Greet, task.WithActivityInput("Oslo")).Await(&a); err != nil {
		return nil, err
	}
	err := ctx.CallActivity("Farewell").Await(nil)
	return a, err
}

func Greet(ctx task.ActivityContext) (any, error) {
	var city string
	_ = ctx.GetInput(&city)
	return "hi " + city, nil
}

func serve(name string, fn any) {}

func main() {
	serve("/GreetAll", GreetAll)
	serve("/Greet", Greet)
	_ = http.ListenAndServe(":8080", nil)
}
