namespace Payments;

public interface IPaymentGateway
{
    Task<string> ChargeAsync(string orderId, long amountCents);
}
