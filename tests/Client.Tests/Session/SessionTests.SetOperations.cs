using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Session;

public abstract partial class SessionTests
{
    private const string ByCustomer = "Carts/ByCustomer";

    /// <summary>Carts <c>setops/0..29</c>: every third one's customer is "keep", the others' "bulk"; Total = i.</summary>
    private async Task SeedSetOperationsAsync()
    {
        await Fixture.PutIndexAsync(ByCustomer, $$"""
            {"Name":"{{ByCustomer}}","EntityName":"Cart","Fields":[{"Name":"Customer","Path":"Customer"}]}
            """);
        using (var session = Store.OpenSession())
        {
            for (var i = 0; i < 30; i++)
                session.Store(NewCart(i % 3 == 0 ? "keep" : "bulk", i), $"setops/{i}");
            session.SaveChanges();
        }
        WaitForByCustomer();
    }

    private void WaitForByCustomer()
    {
        using var reader = Store.OpenSession();
        _ = reader.Query<Cart>(ByCustomer).WaitForNonStaleResults(TimeSpan.FromMinutes(1)).Take(1).ToList();
    }

    [Fact]
    public async Task Patch_and_delete_by_query_change_exactly_the_matches_and_can_be_waited_on()
    {
        await SeedSetOperationsAsync();

        var patch = await Store.Operations.PatchByQueryAsync(ByCustomer, "Customer:bulk", """[{"op":"increment","path":"/Total","value":100}]""");
        var patched = await patch.WaitForCompletionAsync();

        Assert.Equal(20, patch.Started.Matched);
        Assert.Equal(SetOperationState.Completed, patched.State);
        Assert.Equal(20, patched.Changed);
        for (var i = 0; i < 30; i++)
            Assert.Equal(i % 3 == 0 ? i : i + 100, Reload<Cart>($"setops/{i}")!.Total);

        WaitForByCustomer();
        var delete = await Store.Operations.DeleteByQueryAsync(ByCustomer, "Customer:keep");
        var deleted = await delete.WaitForCompletionAsync();

        Assert.Equal(SetOperationKind.Delete, deleted.Kind);
        Assert.Equal(10, deleted.Changed);
        for (var i = 0; i < 30; i++)
            Assert.Equal(i % 3 != 0, Reload<Cart>($"setops/{i}") is not null);
        Assert.Equal(SetOperationState.Completed, (await delete.GetStatusAsync())!.State);
        Assert.Equal(SetOperationState.Completed, (await delete.CancelAsync())!.State);
    }

    [Fact]
    public async Task Patch_by_query_reports_the_documents_its_test_refuses()
    {
        await SeedSetOperationsAsync();

        var operation = await Store.Operations.PatchByQueryAsync(ByCustomer, "Customer:keep",
            """[{"op":"test","path":"/Total","value":3},{"op":"replace","path":"/Customer","value":"changed"}]""");
        var status = await operation.WaitForCompletionAsync();

        Assert.Equal(1, status.Changed);
        Assert.Equal(9, status.FailedCount);
        Assert.DoesNotContain(status.Failures, f => f.Key == "setops/3");
        Assert.Equal("changed", Reload<Cart>("setops/3")!.Customer);
        Assert.Equal("keep", Reload<Cart>("setops/6")!.Customer);
    }

    [Fact]
    public async Task Set_operations_refuse_bad_input_as_the_embedded_database_does()
    {
        await SeedSetOperationsAsync();

        await Assert.ThrowsAsync<IndexNotFoundException>(() => Store.Operations.DeleteByQueryAsync("Nope", null));
        await Assert.ThrowsAsync<QueryException>(() => Store.Operations.DeleteByQueryAsync(ByCustomer, "Customer:(("));
        await Assert.ThrowsAnyAsync<ArgumentException>(() => Store.Operations.PatchByQueryAsync(ByCustomer, null, """{"op":"add"}"""));
        Assert.NotNull(Reload<Cart>("setops/0"));
    }
}
