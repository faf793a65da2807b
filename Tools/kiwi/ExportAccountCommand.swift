import ArgumentParser
import AsyncHTTPClient
import Foundation
import KiwiAPIClient
import NIOCore
import NIOHTTP1

/// `kiwi export-account > me.json`: everything Kiwi keeps of you (`GET /v1/account/export`), written to standard output
/// as it arrives: asked without the generated client, which would read the whole document before handing it over.
struct ExportAccount: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-account",
        abstract: "Write everything Kiwi keeps of you as one JSON document to standard output.",
        discussion: "Your account, profile, devices, household, pantry, shopping list, plans, recipe box and scans. "
            + "Three exports, then one every 20 minutes."
    )

    @OptionGroup var server: ServerOptions

    func run() async throws {
        try await runReportingErrors {
            let (_, _, session) = try signedInSession(server)
            var request = HTTPClientRequest(url: session.server.trimmingSuffix("/") + "/v1/account/export")
            request.headers.add(name: "Authorization", value: "Bearer \(session.sessionToken)")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
            guard response.status.code == 200 else {
                let body = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
                guard let error = try? JSONDecoder().decode(Components.Schemas._Error.self, from: body) else {
                    throw CLIError("Kiwi answered an unexpected HTTP \(response.status.code).")
                }
                throw sentence(error, status: Int(response.status.code))
            }
            do {
                for try await chunk in response.body { FileHandle.standardOutput.write(Data(chunk.readableBytesView)) }
            } catch {
                throw CLIError("The export was cut short (\(error)); what was written is unfinished. Ask again.")
            }
        }
    }
}
