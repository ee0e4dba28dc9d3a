package review

import "testing"

// TestRoutesMatchByPathTail checks how a called path finds the tree's
// handlers: by its last segments, route parameters matching any segment,
// the nearest copies first; and which URLs may reach the tree.
func TestRoutesMatchByPathTail(t *testing.T) {
	f := func(path string) *Func { return &Func{Name: path, File: &File{Path: path}} }
	near, far, other := f("svc/orders/app.py"), f("copy2/orders/app.py"), f("svc/orders/api.py")
	ri := &routeIndex{}
	ri.add("/orders/{id}/cancel", near)
	ri.add("/orders/<id>/cancel", far)
	ri.add("/quote", other)
	for _, c := range []struct {
		path string
		want int
	}{
		{"http://localhost:3500/v1.0/invoke/orders/method/orders/42/cancel", 2},
		{"orders/42/cancel", 2},
		{"/quote?x=1", 1},
		{"/quotes", 0},
		{"", 0},
	} {
		if got := ri.handlers(c.path); len(got) != c.want {
			t.Errorf("handlers(%q) = %d, want %d", c.path, len(got), c.want)
		}
	}
	if got := nearest([]*Func{far, near, other}, "svc/orders/activities.py"); len(got) != 2 || got[0] != near || got[1] != other {
		t.Errorf("nearest kept %v", got)
	}
	for u, want := range map[string]bool{
		"/pay": true, "http://localhost:3000/x": true, "http://inventory/reserve": true,
		"http://builder.apps.svc.cluster.local:3000/api": true, "https://api.stripe.com/v1/charges": false,
	} {
		if ownURL(u) != want {
			t.Errorf("ownURL(%q) = %v, want %v", u, !want, want)
		}
	}
	if !internalURL("http://x:3500/v1.0/invoke/a/method/b") || !internalURL("https://api.example.com/internal/jobs") || internalURL("https://api.example.com/v1/jobs") {
		t.Error("internalURL")
	}
}
