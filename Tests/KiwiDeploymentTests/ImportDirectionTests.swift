import Foundation
import KiwiTestSupport
import Testing

/// `deploy/local/check-imports.py`, which `make test` runs, on planted packages: an import against the layers
/// (docs/architecture.md, "Modules and layers") fails the check and is named.
@Suite("The import direction check")
struct ImportDirectionTests {
    /// The check's exit status and what it printed, on a package of `targets`, each with the one line of Swift it
    /// holds.
    func check(_ targets: [(name: String, path: String, type: String, source: String)]) async throws -> (status: Int32, output: String) {
        let root = FileManager.default.temporaryDirectory.appending(path: "kiwi-imports-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var described: [[String: Any]] = []
        for target in targets {
            let folder = root.appending(path: target.path)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(target.source.utf8).write(to: folder.appending(path: "Source.swift"))
            let imported = target.source.split(separator: " ").dropFirst().map(String.init)
            described.append([
                "name": target.name, "path": target.path, "type": target.type, "sources": ["Source.swift"], "target_dependencies": imported,
            ])
        }
        let description = root.appending(path: "describe.json")
        try JSONSerialization.data(withJSONObject: ["path": root.path, "targets": described]).write(to: description)
        let script = DeploymentFiles.root.appending(path: "deploy/local/check-imports.py").path
        return try await runProgram("/usr/bin/python3", [script, description.path], includingStandardError: true)
    }

    /// Plants `targets` and expects the check to fail, printing `message`; returns what it printed.
    @discardableResult
    func expectRefused(
        _ targets: [(name: String, path: String, type: String, source: String)],
        saying message: String
    ) async throws -> String {
        let result = try await check(targets)
        #expect(result.status == 1)
        #expect(result.output.contains(message), "\(result.output)")
        return result.output
    }

    @Test("imports that go down the layers pass")
    func downwardImportsPass() async throws {
        let result = try await check([
            ("KiwiStrictJSON", "Shared/StrictJSON", "library", ""),
            ("KiwiModels", "Shared/Models", "library", "import KiwiStrictJSON"),
            ("KiwiDietGuard", "Shared/DietGuard", "library", "import KiwiModels"),
            ("KiwiDatabase", "Shared/Database", "library", ""),
            ("KiwiGateway", "Services/gateway", "executable", "import KiwiDatabase"),
        ])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("a rules module that imports a store fails the check, naming the module and the file")
    func upwardImportFails() async throws {
        let output = try await expectRefused(
            [("KiwiDietGuard", "Shared/DietGuard", "library", "import KiwiDatabase"), ("KiwiDatabase", "Shared/Database", "library", "")],
            saying: "KiwiDietGuard imports upward: rules may not import stores and messaging"
        )
        #expect(output.contains("Shared/DietGuard/Source.swift"), "\(output)")
    }

    @Test("a foundations module that imports any Kiwi module but the JSON module fails the check")
    func foundationImportFails() async throws {
        try await expectRefused(
            [("KiwiModels", "Shared/Models", "library", "import KiwiConcurrency"), ("KiwiConcurrency", "Shared/Concurrency", "library", "")],
            saying: "KiwiModels is a foundations module, which imports no Kiwi module but the JSON module"
        )
    }

    @Test("the JSON module that imports any Kiwi module fails the check")
    func jsonImportFails() async throws {
        try await expectRefused(
            [("KiwiStrictJSON", "Shared/StrictJSON", "library", "import KiwiModels"), ("KiwiModels", "Shared/Models", "library", "")],
            saying: "KiwiStrictJSON is the JSON module, which imports no Kiwi module"
        )
    }

    @Test("a shared module that imports a service fails the check")
    func serviceImportFails() async throws {
        try await expectRefused(
            [
                ("KiwiServiceSupport", "Shared/ServiceSupport", "library", "import KiwiGateway"),
                ("KiwiGateway", "Services/gateway", "executable", ""),
            ],
            saying: "KiwiServiceSupport imports a service"
        )
    }

    @Test("a service that imports a module only tools and tests may use fails the check")
    func developmentImportFails() async throws {
        try await expectRefused(
            [("KiwiDevelopment", "Shared/Development", "library", ""), ("KiwiAuth", "Services/auth", "executable", "import KiwiDevelopment")],
            saying: "KiwiAuth is a service importing a module only tools and tests may use"
        )
    }

    @Test("a shared module given no layer fails the check")
    func unplacedModuleFails() async throws {
        try await expectRefused([("KiwiPantry", "Shared/Pantry", "library", "")], saying: "KiwiPantry is in no layer")
    }
}
