package catalyst

import (
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

func TestInternerSharesRepeatedStrings(t *testing.T) {
	in := newInterner()
	a := in.str([]byte("ChargeCard"))
	b := in.str([]byte("ChargeCard"))
	if a != "ChargeCard" || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error("the same bytes did not give the same string")
	}
	if in.str(nil) != "" {
		t.Error("empty input")
	}
	long := strings.Repeat("x", internMax+1)
	if got := in.str([]byte(long)); got != long {
		t.Error("a long string came back changed")
	}
}

func TestInternerIsCorrectUnderCollisions(t *testing.T) {
	// Far more distinct strings than slots: every answer is still right.
	in := newInterner()
	buf := []byte{}
	for i := 0; i < 5*internSlots; i++ {
		buf = strconv.AppendInt(buf[:0], int64(i), 10)
		if got := in.str(buf); got != string(buf) {
			t.Fatalf("str(%q) = %q", buf, got)
		}
	}
}

func TestRoutersAreSharedByPair(t *testing.T) {
	var r routers
	a, b := r.get("orders", "stock"), r.get("orders", "stock")
	c := r.get("orders", "")
	if a != b || a == c || *a != (Router{"orders", "stock"}) || *c != (Router{Source: "orders"}) {
		t.Errorf("routers %p %p %p", a, b, c)
	}
	// The pair is not confused by where one id ends and the other begins.
	if d := r.get("ord", "ersstock"); d == a {
		t.Error("different pairs shared a router")
	}
	if e, f := r.get("a\x00b", ""), r.get("a", "b\x00"); e == f || e.Source != "a\x00b" || f.Target != "b\x00" {
		t.Error("ids holding the separator byte shared a router")
	}
	if r.get("", "") != nil {
		t.Error("no router for an empty pair")
	}
}

func TestArenaCopies(t *testing.T) {
	var a arena
	src := []byte("payload")
	s := a.str(src)
	src[0] = 'X'
	if s != "payload" {
		t.Errorf("the copy changed with its source: %q", s)
	}
	// Many strings share blocks; none is disturbed by the ones after it.
	var all []string
	for i := 0; i < 50_000; i++ {
		all = append(all, a.str([]byte(strconv.Itoa(i))))
	}
	for i, s := range all {
		if s != strconv.Itoa(i) {
			t.Fatalf("string %d is %q", i, s)
		}
	}
	big := strings.Repeat("b", arenaBlock)
	if a.str([]byte(big)) != big || a.str(nil) != "" {
		t.Error("a string larger than a block, or an empty one")
	}
}
