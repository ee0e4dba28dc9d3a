using Dapr.Workflow;

namespace Booking.Activities;

// A template-method base: the derived classes only name their queue.
public abstract class QueueActivity<TRequest> : WorkflowActivity<TRequest, bool>
{
    protected abstract string QueueName { get; }

    public override async Task<bool> RunAsync(WorkflowActivityContext context, TRequest input)
    {
        await Task.Delay(1);
        return true;
    }
}
