using Microsoft.AspNetCore.Mvc;
using Microsoft.EntityFrameworkCore;

namespace Vendors.Api;

public sealed class Supplier
{
    public Guid Id { get; set; }
    public string Name { get; set; } = "";
}

public sealed class VendorDb(DbContextOptions<VendorDb> options) : DbContext(options)
{
    public DbSet<Supplier> Suppliers => Set<Supplier>();
}

public sealed record NewSupplier(string Name, int Rating);

[ApiController]
[Route("[controller]")]
public class SupplierController(VendorDb db) : ControllerBase
{
    [HttpPost("register")]
    public async Task<IActionResult> Register(NewSupplier body)
    {
        var row = new Supplier { Id = Guid.NewGuid(), Name = body.Name }; // want: key-generated-in-body
        db.Suppliers.Add(row); // want: unkeyed-side-effect
        await db.SaveChangesAsync();
        return Ok(row.Id);
    }
}
