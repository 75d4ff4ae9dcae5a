import Foundation
import PackagePlugin

/// Compiles the top-level `migrations/*.sql` into the target as Swift string
/// literals, so an installed `herald` carries its schema without the source tree.
/// `migrations/` stays the one source of truth: nothing generated is committed.
@main
struct EmbedMigrationsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.package.directoryURL.appending(path: "migrations")
        let files = try FileManager.default
            .contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) migrations",
                executable: try context.tool(named: "EmbedMigrations").url,
                arguments: [output.path()] + files.map { $0.path() },
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
