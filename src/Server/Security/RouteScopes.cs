namespace RavenLite.Server.Security;

/// <summary>
/// The scope each request needs, decided in one place from its method and path: the <c>/admin</c> routes and index
/// definitions (<c>PUT</c>, <c>DELETE</c> of <c>/indexes/{name}</c>) need admin; reads (<c>GET</c>, <c>HEAD</c>, and
/// <c>POST /queries</c>, a multi-get) need read; every other write needs write.
/// </summary>
internal static class RouteScopes
{
    /// <summary>The scope <paramref name="request"/> needs.</summary>
    public static ApiKeyScope Required(HttpRequest request)
    {
        var path = request.Path;
        var method = request.Method;
        if (path.StartsWithSegments("/admin", StringComparison.OrdinalIgnoreCase) || path.StartsWithSegments("/metrics", StringComparison.OrdinalIgnoreCase))
            return ApiKeyScope.Admin;
        if (path.StartsWithSegments("/indexes", StringComparison.OrdinalIgnoreCase) && (HttpMethods.IsPut(method) || HttpMethods.IsDelete(method)))
            return ApiKeyScope.Admin;
        if (HttpMethods.IsGet(method) || HttpMethods.IsHead(method) || HttpMethods.IsOptions(method))
            return ApiKeyScope.Read;
        if (HttpMethods.IsPost(method) && path.Equals("/queries", StringComparison.OrdinalIgnoreCase))
            return ApiKeyScope.Read;
        return ApiKeyScope.Write;
    }
}
