package review_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect/review/python"
)

// TestGoFollowsCallsThroughTypes: an activity that is a method of a
// struct holding its dependencies (the shape real Go services have) is
// followed into them: a field of a concrete type in another file, an
// interface field with one implementation, an embedded type's method. An
// interface with two implementations is not followed (either could run).
// The struct's method is registered through a variable made by a
// constructor, even though another type has a method of the same name.
func TestGoFollowsCallsThroughTypes(t *testing.T) {
	acts := `package main

import (
	"context"

	"github.com/dapr/durabletask-go/workflow"
)

type Activities struct {
	Auditor
	gateway *stripeGateway
	mail    Mailer
	store   Store
}

func NewActivities() *Activities { return &Activities{gateway: &stripeGateway{}} }

func (a *Activities) ChargeCard(ctx workflow.ActivityContext) (any, error) {
	var orderID string
	if err := ctx.GetInput(&orderID); err != nil {
		return nil, err
	}
	if err := a.gateway.Charge(context.Background(), orderID); err != nil {
		return nil, err
	}
	a.Audit(orderID)
	_ = a.store.Save(orderID)
	return nil, a.mail.Send(orderID)
}

type legacy struct{}

func (legacy) ChargeCard(ctx workflow.ActivityContext) (any, error) { return nil, nil }

func main() {
	acts := NewActivities()
	r := workflow.NewRegistry()
	_ = r.AddActivity(acts.ChargeCard)
}
`
	deps := `package main

import (
	"net/http"
	"net/smtp"
	"os"

	"github.com/google/uuid"
)

type stripeGateway struct{ client *http.Client }

func (g *stripeGateway) Charge(ctx context.Context, orderID string) error {
	req, _ := http.NewRequest(http.MethodPost, "https://pay.example/charges", nil)
	req.Header.Set("Idempotency-Key", uuid.NewString())
	_, err := g.client.Do(req)
	return err
}

type Mailer interface{ Send(to string) error }

type smtpMailer struct{}

func (smtpMailer) Send(to string) error { return smtp.SendMail("mail:25", nil, "shop@example.com", []string{to}, nil) }

type Store interface{ Save(id string) error }

type pgStore struct{}

func (pgStore) Save(id string) error { return nil }

type memStore struct{}

func (memStore) Save(id string) error { return nil }

type Auditor struct{}

func (Auditor) Audit(id string) {
	f, _ := os.OpenFile("audit.log", os.O_APPEND|os.O_WRONLY, 0o600)
	defer f.Close()
}
`
	rep := reviewDir(t, map[string]string{"activities.go": acts, "deps.go": deps})
	if len(rep.Activities) != 1 || rep.Activities[0].Unresolved || rep.Activities[0].Func != "Activities.ChargeCard" {
		t.Fatalf("activities %+v, want ChargeCard registered as Activities.ChargeCard", rep.Activities)
	}
	var got []string
	for _, h := range rep.Hazards {
		got = append(got, string(h.Rule)+" deps.go:"+itoa(h.Line)+" via "+strings.Join(h.Via, " > "))
	}
	sort.Strings(got)
	joined := strings.Join(got, "\n")
	for _, want := range []string{
		"key-generated-in-body deps.go:15 via stripeGateway.Charge (called at", // a field's concrete type
		"unkeyed-side-effect deps.go:24 via smtpMailer.Send (called at",        // the interface's one implementation
		"unkeyed-side-effect deps.go:39 via Auditor.Audit (called at",          // an embedded type's method
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("no hazard %q among:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "Store.Save") || strings.Contains(joined, "pgStore") {
		t.Errorf("a call on an interface with two implementations was followed:\n%s", joined)
	}
}

// TestPythonFollowsCallsThroughTypes: the same for Python: an activity
// that is a method of a class holding its dependencies (set in __init__
// from an annotated parameter or a constructor) is followed into the
// abstract gateway's one implementation in another module and into a
// client the class makes; the method registered through an instance is
// found though another class has a method of the same name.
func TestPythonFollowsCallsThroughTypes(t *testing.T) {
	if ok, why := python.Available(); !ok {
		t.Skip(why)
	}
	app := `import dapr.ext.workflow as wf

from .gateways import Gateway, StripeGateway
from .mail import Mailer

wfr = wf.WorkflowRuntime()


class PaymentActivities:
    def __init__(self, gateway: Gateway):
        self.gateway = gateway
        self.mailer = Mailer()

    def charge(self, ctx, order):
        charge_id = self.gateway.charge(order["id"], order["amount"])
        self.mailer.receipt(order["email"])
        return charge_id


class Legacy:
    def charge(self, ctx, order):
        return None


acts = PaymentActivities(StripeGateway())
wfr.register_activity(acts.charge, name="charge")
`
	gateways := `import abc
import uuid

import requests


class Gateway(abc.ABC):
    @abc.abstractmethod
    def charge(self, order_id: str, amount: int) -> str:
        raise NotImplementedError


class StripeGateway(Gateway):
    def charge(self, order_id: str, amount: int) -> str:
        resp = requests.post("https://pay.example/charges", json={"amount": amount},
                             headers={"Idempotency-Key": str(uuid.uuid4())})
        return resp.json()["id"]
`
	mail := `import smtplib


class Mailer:
    def receipt(self, to: str) -> None:
        with smtplib.SMTP("mail") as s:
            s.sendmail("shop@example.com", [to], "thanks")
`
	rep := reviewDir(t, map[string]string{"app/activities.py": app, "app/gateways.py": gateways, "app/mail.py": mail})
	if len(rep.Activities) != 1 || rep.Activities[0].Unresolved || rep.Activities[0].Func != "PaymentActivities.charge" {
		t.Fatalf("activities %+v, want charge registered as PaymentActivities.charge", rep.Activities)
	}
	var got []string
	for _, h := range rep.Hazards {
		got = append(got, string(h.Rule)+" "+h.File[strings.LastIndexByte(h.File, '/')+1:]+":"+itoa(h.Line)+" via "+strings.Join(h.Via, " > "))
	}
	joined := strings.Join(got, "\n")
	for _, want := range []string{
		"key-generated-in-body gateways.py:16 via StripeGateway.charge (called at", // the abstract gateway's one implementation
		"unkeyed-side-effect mail.py:7 via Mailer.receipt (called at",              // a client the class makes
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("no hazard %q among:\n%s", want, joined)
		}
	}
}
