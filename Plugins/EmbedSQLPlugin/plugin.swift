import Foundation
import PackagePlugin

/// Compiles the top-level `migrations/*.sql` (the schema) and `queries/*.sql` (the statements
/// HeraldStore runs, in `-- name:` blocks) into the target as Swift string literals, so an
/// installed `herald` carries both without the source tree. The `.sql` files stay the one
/// source of truth: nothing generated is committed.
@main
struct EmbedSQLPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "EmbedSQL").url
        func embed(_ folder: String, as variable: String, what: String) throws -> Command {
            let directory = context.package.directoryURL.appending(path: folder)
            let files = try FileManager.default
                .contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "sql" }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            let output = context.pluginWorkDirectoryURL.appending(path: "Embedded-\(folder).swift")
            return .buildCommand(
                displayName: "Embedding \(files.count) \(what)",
                executable: tool,
                arguments: [variable, output.path()] + files.map { $0.path() },
                inputFiles: files,
                outputFiles: [output]
            )
        }
        return [
            try embed("migrations", as: "embeddedMigrationFiles", what: "migrations"),
            try embed("queries", as: "embeddedQueryFiles", what: "query files"),
        ]
    }
}
