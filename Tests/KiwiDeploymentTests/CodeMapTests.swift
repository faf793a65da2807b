import Foundation
import Testing

/// The walks of docs/architecture.md ("A scan's path through the code") name the files a scan passes through, file
/// by file; this holds every path the document names to the tree, so that a file that moves or goes takes its mention
/// with it.
///
/// The rule: a backticked span outside fenced code blocks that starts with `Services/`, `Shared/`, `Tools/`,
/// `Tests/`, `deploy/` or `docs/` is a repository path, of a file or of a folder (a trailing `/` allowed), and must
/// exist. In a table row, a backticked bare file name ending in `.swift` is in the folder of the last repository path
/// before it in that row (`Services/scan-worker/ScanPipeline/ScanPipeline.swift` → `AnswerRepair.swift`), and must
/// exist there. Any other backticked text (a type, a variable, a route, a queue) is no path.
@Suite("The architecture document's code map")
struct CodeMapTests {
    static let document = "docs/architecture.md"
    /// The folders a repository path starts with.
    static let roots = ["Services/", "Shared/", "Tools/", "Tests/", "deploy/", "docs/"]

    /// The repository paths `markdown` names by the rule above, in order, each with its line (from 1).
    static func paths(in markdown: String) -> [(path: String, line: Int)] {
        var paths: [(path: String, line: Int)] = []
        var inFence = false
        // The code span being read: it may run on over a line break.
        var span: String?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = line.drop { $0 == " " }
            if text.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            // The folder of the last repository path in this table row, for the bare file names after it.
            var folder: String?
            for character in line {
                guard character == "`" else {
                    span?.append(character)
                    continue
                }
                guard let code = span else {
                    span = ""
                    continue
                }
                span = nil
                if roots.contains(where: { code.hasPrefix($0) }) {
                    paths.append((path: code, line: index + 1))
                    folder = text.hasPrefix("|") ? Self.folder(of: code) : nil
                } else if let folder, code.hasSuffix(".swift"), !code.contains("/"), !code.contains(" ") {
                    paths.append((path: "\(folder)/\(code)", line: index + 1))
                }
            }
            span?.append(" ")
        }
        return paths
    }

    /// The folder `path` is in, or the folder it is: one ending in `/`, or one whose last component has no extension.
    static func folder(of path: String) -> String {
        var components = path.split(separator: "/").map(String.init)
        if !path.hasSuffix("/"), components.last?.contains(".") == true { components.removeLast() }
        return components.joined(separator: "/")
    }

    /// Whether `path`, from the repository root, is a file or a folder of the checkout.
    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: DeploymentFiles.root.appending(path: path).path)
    }

    @Test("every repository path docs/architecture.md names exists")
    func namedPathsExist() throws {
        let named = Self.paths(in: try DeploymentFiles.text(Self.document))
        #expect(!named.isEmpty)
        for (path, line) in named {
            #expect(Self.exists(path), "\(Self.document), line \(line), names \(path), which does not exist")
        }
    }

    @Test("a path that does not exist is reported, written in full or as a bare file name in a table row")
    func missingPathIsReported() {
        let planted = """
            This suite is `Tests/KiwiDeploymentTests/CodeMapTests.swift`, beside `Tests/KiwiDeploymentTests/NoSuchFolder/`.

            | 1 | `Tests/KiwiDeploymentTests/DeploymentFiles.swift` → `CodeMapTests.swift` → `NoSuchHelper.swift` | a walk's row |

            ```
            `Tests/NotAPathInAFencedBlock.swift`
            ```
            A bare `NoSuchFile.swift` outside a table row, and `DeploymentFiles`, are no paths.
            """
        let missing = Self.paths(in: planted).map(\.path).filter { !Self.exists($0) }
        #expect(missing == ["Tests/KiwiDeploymentTests/NoSuchFolder/", "Tests/KiwiDeploymentTests/NoSuchHelper.swift"])
    }

    @Test("the document opens with the glossary, then the walks of a streamed photo scan and of a refinement, then section 1")
    func walksComeFirst() throws {
        let headings = try DeploymentFiles.text(Self.document).split(separator: "\n").filter { $0.hasPrefix("#") }.map(String.init)
        let opening = ["## Glossary", "## A scan's path through the code", "### A streamed photo scan", "### A refinement"]
        #expect(Array(headings.dropFirst().prefix(5)) == opening + ["## 1. System overview"])
    }
}
