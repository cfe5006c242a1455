using BenchmarkDotNet.Attributes;
using Microsoft.AspNetCore.Builder;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Client;
using Customer = RavenLite.Benchmarks.Features.IncludeBenchmarks.Customer;
using Order = RavenLite.Benchmarks.Features.IncludeBenchmarks.Order;

namespace RavenLite.Benchmarks.Features;

/// <summary>
/// A page of 100 orders and their 10 customers through the remote client against the real server on 127.0.0.1: a
/// query with an include of each order's customer (one round trip) against the query and then one multi-get of the
/// customers (two round trips). A fresh session each time; the store's HTTP cache revalidates both kinds of request
/// (<c>If-None-Match</c>, 304), as any repeated read does.
/// </summary>
[MemoryDiagnoser]
public class QueryIncludeBenchmarks : IDisposable
{
    private const int Orders = 100;
    private const int Customers = 10;
    private readonly string _directory = BenchmarkFolders.NewTemp();
    private WebApplication _server = null!;
    private RavenStore _store = null!;

    [GlobalSetup]
    public void Setup()
    {
        _server = BenchmarkServer.Start(_directory);
        _store = RavenStore.ForServer(new Uri(_server.Urls.First()));
        using var session = _store.OpenSession();
        for (var i = 0; i < Customers; i++)
            session.Store(new Customer { Name = $"customer {i}" }, $"customers/{i}");
        for (var i = 0; i < Orders; i++)
            session.Store(new Order { CustomerId = $"customers/{i % Customers}", Total = i }, $"orders/{i}");
        session.SaveChanges();
        using var wait = _store.OpenSession();
        if (wait.Query<Order>().Take(Orders).WaitForNonStaleResults(TimeSpan.FromMinutes(1)).ToList().Count != Orders)
            throw new InvalidOperationException("The orders are not all indexed.");
    }

    [GlobalCleanup]
    public void Dispose()
    {
        _store?.Dispose();
        BenchmarkServer.Stop(_server);
        BenchmarkFolders.Delete(_directory);
        GC.SuppressFinalize(this);
    }

    [Benchmark(Baseline = true, Description = "100 orders, then their customers: query + multi-get")]
    public int QueryThenMultiGet()
    {
        using var session = _store.OpenSession();
        var orders = session.Query<Order>().Take(Orders).ToList();
        var customers = session.Load<Customer>(orders.Select(o => o.CustomerId!).Distinct());
        return Check(session, orders, customers, 2);
    }

    [Benchmark(Description = "100 orders with include, then their customers: one query")]
    public int QueryWithInclude()
    {
        using var session = _store.OpenSession();
        var orders = session.Query<Order>().Take(Orders).Include(o => o.CustomerId).ToList();
        var customers = session.Load<Customer>(orders.Select(o => o.CustomerId!).Distinct());
        return Check(session, orders, customers, 1);
    }

    private static int Check(DocumentSession session, List<Order> orders, Customer?[] customers, int requests) =>
        orders.Count == Orders && customers.Length == Customers && customers.All(c => c is not null) && session.NumberOfRequests == requests
            ? orders.Count + customers.Length
            : throw new InvalidOperationException($"{orders.Count} orders, {customers.Length} customers, {session.NumberOfRequests} requests (expected {requests}).");
}
