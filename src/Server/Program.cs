using RavenLite.Server.Cli;

// dotnet run --project src/Server -c Release  ->  http://127.0.0.1:8080 over an LMDB database in ./data.
// `ravenlite --help` lists the verbs (serve, the default, and the tools) and their options (Cli/).
return await RavenLiteCommand.RunAsync(args, Console.Out, Console.Error);
