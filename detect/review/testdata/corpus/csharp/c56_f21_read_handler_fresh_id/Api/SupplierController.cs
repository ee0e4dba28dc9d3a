using Microsoft.AspNetCore.Mvc;

namespace Procurement.Api;

public sealed record SupplierCard(string Id, string Name, int Rating);

[ApiController]
[Route("[controller]")]
public class SupplierController : ControllerBase
{
    [HttpGet("{name}")]
    public ActionResult<SupplierCard> Find(string name)
    {
        if (name.Length == 0)
        {
            return NotFound();
        }
        SupplierCard card;
        if (name.StartsWith("a"))
        {
            card = new SupplierCard(Id: Guid.NewGuid().ToString("N"), Name: name, Rating: 4);
        }
        else
        {
            card = new SupplierCard(Id: Guid.NewGuid().ToString("N"), Name: name, Rating: 2);
        }
        return new OkObjectResult(card);
    }
}
