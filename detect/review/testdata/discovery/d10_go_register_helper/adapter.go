// A helper registers whatever function it is given (an HTTP adapter that
// hosts one activity per route): each call of the helper registers its
// argument.
package main

import (
	"net/http"

	"github.com/dapr/durabletask-go/task"
)

func hostActivity(a task.Activity) http.HandlerFunc {
	r := task.NewTaskRegistry()
	if err := r.AddActivityN("*", a); err != nil {
		panic(err)
	}
	return func(w http.ResponseWriter, req *http.Request) {}
}
