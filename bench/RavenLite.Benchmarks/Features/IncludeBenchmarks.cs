using BenchmarkDotNet.Attributes;
using Microsoft.AspNetCore.Builder;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Client;

namespace RavenLite.Benchmarks.Features;

/// <summary>
/// An order and its customer through the remote client against the real server on 127.0.0.1: loaded with an include
/// (one round trip) against a load and then a second load (two round trips). A fresh session each time.
/// </summary>
[MemoryDiagnoser]
public class IncludeBenchmarks : IDisposable
{
    private readonly string _directory = BenchmarkFolders.NewTemp();
    private WebApplication _server = null!;
    private RavenStore _store = null!;

    public sealed class Customer
    {
        public string? Id { get; set; }

        public string? Name { get; set; }
    }

    public sealed class Order
    {
        public string? Id { get; set; }

        public string? CustomerId { get; set; }

        public decimal Total { get; set; }
    }

    [GlobalSetup]
    public void Setup()
    {
        _server = BenchmarkServer.Start(_directory);
        _store = RavenStore.ForServer(new Uri(_server.Urls.First()));
        using var session = _store.OpenSession();
        session.Store(new Customer { Name = "ayende" }, "customers/1");
        session.Store(new Order { CustomerId = "customers/1", Total = 6.66m }, "orders/1");
        session.SaveChanges();
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _store?.Dispose();
        BenchmarkServer.Stop(_server);
        BenchmarkFolders.Delete(_directory);
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "order, then its customer: two loads")]
    public string TwoLoads()
    {
        using var session = _store.OpenSession();
        var order = session.Load<Order>("orders/1")!;
        return Check(session, session.Load<Customer>(order.CustomerId!), 2);
    }

    [Benchmark(Description = "order with include, then its customer: one load")]
    public string LoadWithInclude()
    {
        using var session = _store.OpenSession();
        var order = session.Load<Order>("orders/1", include: o => o.CustomerId)!;
        return Check(session, session.Load<Customer>(order.CustomerId!), 1);
    }

    private static string Check(DocumentSession session, Customer? customer, int requests) =>
        customer?.Name == "ayende" && session.NumberOfRequests == requests
            ? customer.Name
            : throw new InvalidOperationException($"Wrong customer or {session.NumberOfRequests} requests (expected {requests}).");
}
