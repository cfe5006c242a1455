using Microsoft.AspNetCore.Diagnostics;
using Microsoft.AspNetCore.Mvc;

namespace RavenLite.Server.Errors;

/// <summary>
/// Writes the error body every refusal shares: RFC 9457 problem details (<c>application/problem+json</c>) with
/// <c>type</c>, <c>title</c>, <c>status</c>, <c>detail</c> and the error's <c>code</c>.
/// </summary>
internal static class ErrorResponse
{
    /// <summary>Sets the problem's status and writes it as the body, through ASP.NET Core's problem details writer.</summary>
    public static Task WriteAsync(HttpContext context, ProblemDetails problem) =>
        TypedResults.Problem(problem).ExecuteAsync(context);

    /// <summary>The body for a status the framework set without one (unknown route 404, wrong method 405).</summary>
    public static Task WriteForStatusAsync(StatusCodeContext context) =>
        WriteAsync(context.HttpContext, ErrorMapping.MapStatus(context.HttpContext.Response.StatusCode, context.HttpContext.Request));
}
