package review_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/csharp"
)

func skipWithoutCSharp(t *testing.T) {
	t.Helper()
	if ok, why := csharp.Available(); !ok {
		t.Skip(why)
	}
}

// csActivity is a C# activity that saves state under KEY, with the given
// using directives.
func csActivity(usings, key string) string {
	return usings + `
using Dapr.Client;
using Dapr.Workflow;

namespace Shop;

public sealed record Voucher(string OrderId, decimal Amount);

public sealed class IssueVoucher(DaprClient dapr) : WorkflowActivity<Voucher, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Voucher input)
    {
        await dapr.SaveStateAsync("vouchers", ` + key + `, input);
        return true;
    }
}
`
}

// TestCSharpNamesResolveThroughUsings: Guid, DateTime and Random are
// System's through the SDK's implicit usings, a using alias, a static
// using or written out in full; a type of the file that happens to be
// called Ids, or a Guid made from bytes, is not a generator.
func TestCSharpNamesResolveThroughUsings(t *testing.T) {
	skipWithoutCSharp(t)
	for _, tc := range []struct {
		name, usings, key string
		want              bool
	}{
		{"implicit using", "", `Guid.NewGuid().ToString()`, true},
		{"written in full", "", `global::System.Guid.NewGuid().ToString("N")`, true},
		{"using alias", "using Id = System.Guid;", `Id.NewGuid().ToString()`, true},
		{"static using", "using static System.Guid;", `NewGuid().ToString()`, true},
		{"clock property", "", `$"v-{DateTime.UtcNow.Ticks}"`, true},
		{"static using of the clock", "using static System.DateTimeOffset;", `$"v-{UtcNow:O}"`, true},
		{"shared random", "", `Random.Shared.Next().ToString()`, true},
		{"new random", "", `new Random().Next(1000).ToString()`, true},
		{"key from the input", "", `$"voucher-{input.OrderId}"`, false},
		{"guid from bytes", "", `new Guid(System.Text.Encoding.UTF8.GetBytes(input.OrderId.PadRight(16)[..16])).ToString()`, false},
		{"the file's own Ids class", "", `Ids.NewGuid(input.OrderId)`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := csActivity(tc.usings, tc.key)
			if strings.Contains(tc.key, "Ids.") {
				src += "\npublic static class Ids { public static string NewGuid(string seed) => \"v-\" + seed; }\n"
			}
			rep := reviewDir(t, map[string]string{"IssueVoucher.cs": src})
			if len(rep.Activities) != 1 || rep.Activities[0].Name != "IssueVoucher" {
				t.Fatalf("activities %+v, want IssueVoucher", rep.Activities)
			}
			got := false
			for _, h := range rep.Hazards {
				if h.Rule == review.RuleKeyGeneratedInBody {
					got = true
				}
			}
			if got != tc.want {
				t.Fatalf("key-generated-in-body: %v, want %v (hazards %v)", got, tc.want, rep.Hazards)
			}
		})
	}
}

// TestCSharpRegistrations: an activity is listed under the name the
// engine knows it by: RegisterActivity<T>() gives T's name, a name given
// wins, a function registered by name is reviewed in place, and a class
// deriving WorkflowActivity<,> with no call is registered by the SDK's
// source generator under its name, through an abstract base class too
// (dapr/dotnet-sdk v1.18.5, WorkflowsFactory.RegisterActivity and
// WorkflowSourceGenerator). An abstract base class is not an activity.
func TestCSharpRegistrations(t *testing.T) {
	skipWithoutCSharp(t)
	program := `using Dapr.Workflow;
using Shop.Activities;

var builder = Host.CreateApplicationBuilder(args);
builder.Services.AddDaprWorkflow(options =>
{
    options.RegisterActivity<ChargeCard>();
    options.RegisterActivity<ShipOrder>("ship-order");
    options.RegisterActivity<string, bool>("Notify", async (ctx, email) => { await Task.Yield(); return true; });
    options.RegisterActivity<string, string>("Echo", Helpers.EchoAsync);
});
builder.Build().Run();
`
	activities := `using Dapr.Workflow;

namespace Shop.Activities;

public abstract class AuditedActivity<TIn, TOut> : WorkflowActivity<TIn, TOut> { }

public sealed class ChargeCard : AuditedActivity<string, string>
{
    public override Task<string> RunAsync(WorkflowActivityContext context, string input) => Task.FromResult(input);
}

public sealed class ShipOrder : WorkflowActivity<string, string>
{
    public override Task<string> RunAsync(WorkflowActivityContext context, string input) => Task.FromResult(input);
}

public sealed class Refund : WorkflowActivity<string, bool>
{
    public override Task<bool> RunAsync(WorkflowActivityContext context, string input) => Task.FromResult(true);
}

public static class Helpers
{
    public static Task<string> EchoAsync(WorkflowActivityContext context, string input) => Task.FromResult(input);
}
`
	rep := reviewDir(t, map[string]string{"Program.cs": program, "Activities/Activities.cs": activities})
	got := map[string]review.Activity{}
	var names []string
	for _, a := range rep.Activities {
		got[a.Name] = a
		names = append(names, a.Name)
		if a.Unresolved {
			t.Errorf("%s: registered but its function %s was not found", a.Name, a.Func)
		}
	}
	sort.Strings(names)
	// ShipOrder is registered twice: as "ship-order" by the call and as
	// "ShipOrder" by the generator (the factory keeps both names).
	if strings.Join(names, ",") != "ChargeCard,Echo,Notify,Refund,ShipOrder,ship-order" {
		t.Fatalf("activities %v", names)
	}
	if a, ok := got["ChargeCard"]; !ok || !strings.HasSuffix(a.Registered.File, "Program.cs") || a.Func != "ChargeCard.RunAsync" {
		t.Errorf("ChargeCard: %+v; want it registered in Program.cs, defined by ChargeCard.RunAsync", a)
	}
	if a := got["Refund"]; !strings.HasSuffix(a.Registered.File, "Activities.cs") {
		t.Errorf("Refund (no call registers it) should be registered where the class is declared: %+v", a.Registered)
	}
	if a := got["Echo"]; a.Func != "Helpers.EchoAsync" {
		t.Errorf("Echo is %q, want Helpers.EchoAsync", a.Func)
	}
	if _, ok := got["AuditedActivity"]; ok {
		t.Error("an abstract class is not an activity")
	}
}

// TestCSharpFollowsTypedCalls: a call on an injected interface is
// followed into its one implementation in the tree (in another namespace
// and file), a call on this class's method and a static helper class are
// followed too; an interface with two implementations is not (either
// could run), and the call is listed as code twice cannot see.
func TestCSharpFollowsTypedCalls(t *testing.T) {
	skipWithoutCSharp(t)
	activity := `using Dapr.Workflow;
using Shop.Gateways;

namespace Shop;

public sealed class Charge(IGateway gateway, INotifier notifier) : WorkflowActivity<string, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, string orderId)
    {
        await notifier.SendReceiptAsync(orderId);
        await Log(orderId);
        await Keys.Stamp(orderId);
        return await gateway.ChargeAsync(orderId);
    }

    private Task Log(string id) => this.Audit(id);

    private async Task Audit(string id) => await File.AppendAllTextAsync("audit.log", id);
}
`
	gateways := `using System.Net.Http.Json;

namespace Shop.Gateways;

public interface IGateway { Task<string> ChargeAsync(string orderId); }

public interface INotifier { Task SendReceiptAsync(string orderId); }

public sealed class StripeGateway(HttpClient http) : IGateway
{
    public async Task<string> ChargeAsync(string orderId)
    {
        var response = await http.PostAsJsonAsync("https://pay.example/charges", new { orderId });
        return orderId;
    }
}

public sealed class EmailNotifier : INotifier { public Task SendReceiptAsync(string orderId) => Task.CompletedTask; }

public sealed class SmsNotifier : INotifier { public Task SendReceiptAsync(string orderId) => Task.CompletedTask; }

public static class Keys
{
    public static Task Stamp(string id) => File.AppendAllTextAsync("stamps.log", id);
}
`
	rep := reviewDir(t, map[string]string{"Charge.cs": activity, "Gateways/Gateways.cs": gateways})
	a := rep.Activity("Charge")
	if a == nil {
		t.Fatal("Charge not found")
	}
	var found []string
	for _, h := range a.Hazards {
		found = append(found, h.File[strings.LastIndexByte(h.File, '/')+1:]+":"+itoa(h.Line)+" via "+strings.Join(h.Via, " > "))
	}
	sort.Strings(found)
	joined := strings.Join(found, "\n")
	for _, want := range []string{
		"Charge.cs:18 via Charge.Log (called at",       // this.Audit, two levels down
		"Gateways.cs:13 via StripeGateway.ChargeAsync", // the interface's one implementation
		"Gateways.cs:24 via Keys.Stamp",                // a static helper class
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("no hazard %q among:\n%s", want, joined)
		}
	}
	opaque := ""
	for _, o := range a.Opaque {
		opaque += o.Call + " "
	}
	if !strings.Contains(opaque, "notifier.SendReceiptAsync") {
		t.Errorf("the call on an interface with two implementations is not listed as code twice cannot see: %q", opaque)
	}
}

func itoa(n int) string {
	var b []byte
	for n >= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(append([]byte{byte('0' + n)}, b...))
}

// TestCSharpTemplateMethodActivities: activities that derive a base class
// of the tree (in another file) whose RunAsync calls an abstract hook are
// found, and each is reviewed through its own override of the hook.
func TestCSharpTemplateMethodActivities(t *testing.T) {
	skipWithoutCSharp(t)
	base := `using Dapr.Workflow;

namespace Shop.Common;

public abstract class AuditedActivity<TIn, TOut> : WorkflowActivity<TIn, TOut>
{
    public override async Task<TOut> RunAsync(WorkflowActivityContext context, TIn input)
    {
        var result = await ExecuteAsync(context, input);
        return result;
    }

    protected abstract Task<TOut> ExecuteAsync(WorkflowActivityContext context, TIn input);
}
`
	acts := `using Dapr.Workflow;
using Shop.Common;

namespace Shop;

public sealed class SendInvoice(HttpClient http) : AuditedActivity<string, bool>
{
    protected override async Task<bool> ExecuteAsync(WorkflowActivityContext context, string id)
    {
        var r = await http.PostAsync($"https://billing.example/invoices/{id}/send", null);
        return r.IsSuccessStatusCode;
    }
}

public sealed class Archive(HttpClient http) : AuditedActivity<string, bool>
{
    protected override async Task<bool> ExecuteAsync(WorkflowActivityContext context, string id)
    {
        await http.DeleteAsync($"https://billing.example/drafts/{id}");
        return true;
    }
}
`
	program := `using Dapr.Workflow;
using Shop;

var builder = Host.CreateApplicationBuilder(args);
builder.Services.AddDaprWorkflow(o =>
{
    o.RegisterActivity<SendInvoice>();
    o.RegisterActivity<Archive>();
});
`
	rep := reviewDir(t, map[string]string{"Common/AuditedActivity.cs": base, "Activities.cs": acts, "Program.cs": program})
	send, archive := rep.Activity("SendInvoice"), rep.Activity("Archive")
	if send == nil || archive == nil || send.Unresolved || archive.Unresolved {
		t.Fatalf("activities %+v, want SendInvoice and Archive found", rep.Activities)
	}
	if len(send.Hazards) != 1 || send.Hazards[0].Rule != review.RuleUnkeyedSideEffect || !strings.HasSuffix(send.Hazards[0].File, "Activities.cs") {
		t.Errorf("SendInvoice's POST through its override: hazards %+v", send.Hazards)
	}
	if len(archive.Hazards) != 0 {
		t.Errorf("Archive only deletes, yet has hazards %+v", archive.Hazards)
	}
}

// TestCSharpConditionalStateWrites: Dapr state writes that carry an etag
// or first-write concurrency refuse a stale repeat, and are what the join
// cites as "probably refused downstream"; a plain save is not. An etag the
// body reads just before, with nothing that leaves when the read finds the
// work done, refuses only a concurrent writer: a retry reads the etag the
// first attempt left, and its write succeeds too (issue 21: the labelled
// false guards in thangchung/coffeeshop-dapr-workflow, counter-api).
func TestCSharpConditionalStateWrites(t *testing.T) {
	skipWithoutCSharp(t)
	for _, tc := range []struct {
		name, write string
		guard       bool
	}{
		{"try save with an etag it just read", `await dapr.TrySaveStateAsync("vouchers", input.OrderId, input, etag);`, false},
		{"try save after a check of the read", `if (found is not null) { return false; }
        await dapr.TrySaveStateAsync("vouchers", input.OrderId, input, etag);`, true},
		{"try save with the input's etag", `await dapr.TrySaveStateAsync("vouchers", input.OrderId, input, input.ETag);`, true},
		{"entry saved back after an append", `var entry = await dapr.GetStateEntryAsync<List<string>>("vouchers", "issued");
        entry.Value.Add(input.OrderId);
        await entry.TrySaveAsync();`, false},
		{"first write", `await dapr.SaveStateAsync("vouchers", input.OrderId, input, new StateOptions { Concurrency = ConcurrencyMode.FirstWrite });`, true},
		{"transaction with an etag it just read", `await dapr.ExecuteStateTransactionAsync("vouchers", new List<StateTransactionRequest> { new(input.OrderId, null, StateOperationType.Upsert, etag: etag) });`, false},
		{"transaction with the input's etag", `await dapr.ExecuteStateTransactionAsync("vouchers", new List<StateTransactionRequest> { new(input.OrderId, null, StateOperationType.Upsert, etag: input.ETag) });`, true},
		{"plain save", `await dapr.SaveStateAsync("vouchers", input.OrderId, input);`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := csActivity("", `input.OrderId`)
			src = strings.Replace(src, `        await dapr.SaveStateAsync("vouchers", input.OrderId, input);`,
				"        var (found, etag) = await dapr.GetStateAndETagAsync<Voucher>(\"vouchers\", input.OrderId);\n        "+tc.write, 1)
			rep := reviewDir(t, map[string]string{"IssueVoucher.cs": src})
			a := rep.Activity("IssueVoucher")
			if a == nil {
				t.Fatal("IssueVoucher not found")
			}
			if got := len(a.Guards) > 0; got != tc.guard {
				t.Fatalf("guarded: %v, want %v (guards %+v)", got, tc.guard, a.Guards)
			}
		})
	}
}
