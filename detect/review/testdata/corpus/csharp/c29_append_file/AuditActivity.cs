// Appends an audit line to a file: a retry writes the line twice.
using Dapr.Workflow;

namespace Audit;

public sealed record AuditEntry(string OrderId, string Action);

public sealed class AuditActivity : WorkflowActivity<AuditEntry, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, AuditEntry entry)
    {
        await File.AppendAllTextAsync("/var/log/orders/audit.log", $"{entry.OrderId} {entry.Action}\n"); // want: unkeyed-side-effect
        return true;
    }
}
