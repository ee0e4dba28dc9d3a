// The pricing endpoint this tree serves only calculates.
var builder = WebApplication.CreateBuilder(args);
var app = builder.Build();

app.MapPost("/calculate", (Cart cart) =>
{
    Console.WriteLine($"pricing {cart.Id}");
    return Results.Ok(new Price(cart.Lines.Sum(l => l.Amount)));
});

app.Run();

public sealed record Line(decimal Amount);
public sealed record Cart(string Id, List<Line> Lines);
public sealed record Price(decimal Total);
