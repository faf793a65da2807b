import Foundation

/// The two ways Kiwi is deployed, each checked against the code.
enum DeploymentFile: String, CaseIterable, CustomStringConvertible {
    case kubernetes = "deploy/k8s"
    case compose = "deploy/docker-compose.yml"

    var description: String { rawValue }
}

/// One container a deployment file runs, with everything a check needs already resolved.
struct DeployedContainer {
    /// Its Deployment's or compose service's name.
    let name: String
    /// Where it is declared, for failure messages.
    let location: String
    /// The container as written: a Kubernetes container, or a compose service.
    let manifest: YAMLValue
    let image: String
    let command: [String]
    /// Its environment, every reference resolved: from the ConfigMaps, the example Secret and the Secrets operators
    /// generate, with `$(NAME)` substituted, or from the compose file and `deploy/.env.example`.
    let environment: [String: String]
    /// The variables whose values are written in the deployment file itself rather than taken from a secret store.
    let literalVariables: Set<String>
    /// The variables given only to be substituted into others (Kubernetes' `$(NAME)`), which the service need not read.
    let substitutedVariables: Set<String>
    /// How long it may take to stop after it is asked to, in seconds, and how much of that its preStop hook uses.
    let gracePeriodSeconds: Int
    let preStopSeconds: Int

    /// The executable it runs: the last path component of its command.
    var executable: String? {
        command.first?.split(separator: "/").last.map(String.init)
    }

    /// The Kiwi service it runs, if it runs one of the three.
    var service: KiwiService? {
        executable.flatMap(KiwiService.init(rawValue:))
    }

    /// The image without its tag or digest.
    var imageName: String {
        DeploymentFiles.imageName(image)
    }
}

/// Kiwi's deployment files, read from the repository this test target is in.
struct DeploymentFiles {
    /// The repository root: this file is `Tests/KiwiDeploymentTests/DeploymentFiles.swift`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The folder the Dockerfile installs the executables in.
    static let installFolder = "/app"

    /// Every document of `deploy/k8s/*.yaml`, the example Secret included, with its file name.
    let kubernetes: [(file: String, object: YAMLValue)]
    let compose: YAMLValue
    let composeVariables: ComposeVariables
    let dockerfile: String
    let packageManifest: String

    init() throws {
        let folder = Self.root.appending(path: DeploymentFile.kubernetes.rawValue)
        var kubernetes: [(file: String, object: YAMLValue)] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".yaml") {
            let text = try String(contentsOf: folder.appending(path: file), encoding: .utf8)
            for object in try YAMLValue.documents(in: text) where object.exists {
                kubernetes.append((file: file, object: object))
            }
        }
        self.kubernetes = kubernetes
        guard let compose = try YAMLValue.documents(in: Self.text(DeploymentFile.compose.rawValue)).first else {
            throw ManifestError("\(DeploymentFile.compose.rawValue) is empty")
        }
        self.compose = compose
        composeVariables = ComposeVariables(envFile: try Self.text("deploy/.env.example"))
        dockerfile = try Self.text("Dockerfile")
        packageManifest = try Self.text("Package.swift")
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appending(path: path), encoding: .utf8)
    }

    /// `registry/name:tag` or `registry/name@sha256:…` without the tag or digest.
    static func imageName(_ image: String) -> String {
        let name = image.split(separator: "@").first.map(String.init) ?? image
        guard let colon = name.lastIndex(of: ":"), !name[colon...].contains("/") else { return name }
        return String(name[..<colon])
    }

    // MARK: Package.swift and the Dockerfile

    /// The names of Package.swift's executable products.
    var executableProducts: Set<String> {
        let pattern = #/\.executable\(name: "([^"]+)"/#
        return Set(packageManifest.matches(of: pattern).map { String($0.output.1) })
    }

    /// The executables the Dockerfile builds into the image: its `ARG PRODUCTS="…"`.
    var imageProducts: Set<String> {
        let pattern = #/ARG PRODUCTS="([^"]*)"/#
        guard let match = dockerfile.firstMatch(of: pattern) else { return [] }
        return Set(match.output.1.split(separator: " ").map(String.init))
    }

    // MARK: Kubernetes

    /// The objects of one kind, the example Secret's file included.
    func objects(_ kind: String) -> [YAMLValue] {
        kubernetes.map { $0.object }.filter { $0["kind"].string == kind }
    }

    func object(_ kind: String, named name: String) -> YAMLValue? {
        objects(kind).first { $0["metadata"]["name"].string == name }
    }

    /// The Deployment whose pods `selector` (a `matchLabels` or a Service's `selector` mapping) selects.
    func deployments(selectedBy selector: YAMLValue) -> [YAMLValue] {
        let wanted = selector.entries.compactMapValues(\.string)
        return objects("Deployment").filter { deployment in
            let labels = deployment["spec"]["template"]["metadata"]["labels"].entries.compactMapValues(\.string)
            return !wanted.isEmpty && wanted.allSatisfy { labels[$0.key] == $0.value }
        }
    }

    /// The Deployment that runs `service`.
    func deployment(running service: KiwiService) -> YAMLValue? {
        objects("Deployment").first { deployment in
            deployment["spec"]["template"]["spec"]["containers"].items.contains { container in
                container["command"].items.first?.string == "\(Self.installFolder)/\(service.rawValue)"
            }
        }
    }

    // MARK: RabbitMQ

    /// The RabbitMQ Cluster Operator's clusters.
    var rabbitmqClusters: [YAMLValue] {
        objects("RabbitmqCluster")
    }

    /// The Secret the RabbitMQ Cluster Operator generates for each cluster, `<cluster>-default-user`, with example
    /// values of the keys it writes: a URL-safe user and password, and the client Service's host and AMQP port.
    func generatedSecret(named name: String) -> [String: String]? {
        for cluster in rabbitmqClusters {
            guard let clusterName = cluster["metadata"]["name"].string, name == "\(clusterName)-default-user" else { continue }
            return [
                "username": "default_user_Zm9vYmFyYmF6cXV4",
                "password": "cGFzc3dvcmQtZXhhbXBsZS0xMjM0NTY3",
                "host": "\(clusterName).kiwi.svc",
                "port": "5672",
            ]
        }
        return nil
    }

    /// The `data` of a ConfigMap, or the `stringData` of a Secret (the example Secret, or one an operator generates).
    private func values(of kind: String, named name: String) throws -> [String: String] {
        if kind == "Secret", let generated = generatedSecret(named: name) { return generated }
        guard let object = object(kind, named: name) else { throw ManifestError("no \(kind) \(name) in deploy/k8s") }
        return object[kind == "Secret" ? "stringData" : "data"].entries.compactMapValues(\.string)
    }

    /// A `$(NAME)` reference in an `env` value, or the `$$` that escapes a dollar.
    private static var reference: Regex<(Substring, Substring?)> { #/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/# }

    /// The names of the variables `value` refers to as `$(NAME)`.
    static func substitutions(in value: String) -> [String] {
        value.matches(of: reference).compactMap { $0.output.1.map(String.init) }
    }

    /// `value` as Kubernetes expands it: each `$(NAME)` replaced by the variable defined before it, `$$` by `$`. A
    /// reference to a variable not defined is an error here, although Kubernetes would leave it as written.
    private static func substitute(_ value: String, from defined: [String: String], in entry: String) throws -> String {
        var result = ""
        var rest = Substring(value)
        while let match = rest.firstMatch(of: reference) {
            result += rest[..<match.range.lowerBound]
            if let name = match.output.1 {
                guard let replacement = defined[String(name)] else {
                    throw ManifestError("env \(entry) refers to $(\(name)), which no variable before it defines")
                }
                result += replacement
            } else {
                result += "$"
            }
            rest = rest[match.range.upperBound...]
        }
        return result + rest
    }

    private func referencedValue(of kind: String, _ reference: YAMLValue) throws -> String {
        let name = reference["name"].string ?? ""
        let key = reference["key"].string ?? ""
        guard let value = try values(of: kind, named: name)[key] else { throw ManifestError("\(kind) \(name) has no \(key)") }
        return value
    }

    /// A Kubernetes container's environment: `envFrom` first, then `env`, which wins and may substitute the variables
    /// defined before it, as in Kubernetes. A value that substitutes a secret is not written down.
    private func kubernetesEnvironment(
        of container: YAMLValue
    ) throws -> (values: [String: String], literal: Set<String>, substituted: Set<String>) {
        var values: [String: String] = [:]
        var literal: Set<String> = []
        var substituted: Set<String> = []
        for source in container["envFrom"].items {
            let prefix = source["prefix"].string ?? ""
            if let name = source["configMapRef"]["name"].string {
                for (key, value) in try self.values(of: "ConfigMap", named: name) {
                    values[prefix + key] = value
                    literal.insert(prefix + key)
                }
            } else if let name = source["secretRef"]["name"].string {
                // An optional Secret the deployment files do not define (one the operator may create) adds nothing.
                if source["secretRef"]["optional"].bool == true, object("Secret", named: name) == nil { continue }
                for (key, value) in try self.values(of: "Secret", named: name) { values[prefix + key] = value }
            } else {
                throw ManifestError("unsupported envFrom entry")
            }
        }
        for entry in container["env"].items {
            guard let name = entry["name"].string else { throw ManifestError("an env entry has no name") }
            if let value = entry["value"].string {
                let references = Self.substitutions(in: value)
                values[name] = try Self.substitute(value, from: values, in: name)
                if references.allSatisfy(literal.contains) { literal.insert(name) } else { literal.remove(name) }
                substituted.formUnion(references)
            } else if entry["valueFrom"]["configMapKeyRef"].exists {
                values[name] = try referencedValue(of: "ConfigMap", entry["valueFrom"]["configMapKeyRef"])
                literal.insert(name)
            } else if entry["valueFrom"]["secretKeyRef"].exists {
                values[name] = try referencedValue(of: "Secret", entry["valueFrom"]["secretKeyRef"])
                literal.remove(name)
            } else {
                throw ManifestError("env \(name) has neither a string value nor a ConfigMap or Secret key")
            }
        }
        return (values, literal, substituted)
    }

    // MARK: Containers

    /// Every container `file` runs: the Deployments' containers, or the compose services that run Kiwi's image.
    func containers(in file: DeploymentFile) throws -> [DeployedContainer] {
        switch file {
        case .kubernetes: try kubernetesContainers()
        case .compose: try composeContainers()
        }
    }

    /// The containers of `file` that run one of the three services.
    func serviceContainers(in file: DeploymentFile) throws -> [(service: KiwiService, container: DeployedContainer)] {
        try containers(in: file).compactMap { container in container.service.map { ($0, container) } }
    }

    /// The container of `file` that runs `service`.
    func container(running service: KiwiService, in file: DeploymentFile) throws -> DeployedContainer {
        guard let container = try serviceContainers(in: file).first(where: { $0.service == service })?.container else {
            throw ManifestError("\(file) does not run \(service.rawValue)")
        }
        return container
    }

    /// The number of the port a probe or Service names (by number or by name) among a container's `ports`.
    static func containerPort(_ reference: YAMLValue, in container: YAMLValue) -> Int? {
        let ports = container["ports"].items
        if let number = reference.int {
            return ports.contains { $0["containerPort"].int == number } ? number : nil
        }
        return ports.first { $0["name"].string == reference.string && reference.string != nil }?["containerPort"].int
    }

    private func kubernetesContainers() throws -> [DeployedContainer] {
        try kubernetes.filter { $0.object["kind"].string == "Deployment" }.flatMap { file, deployment in
            let pod = deployment["spec"]["template"]["spec"]
            return try pod["containers"].items.map { container in
                let environment = try kubernetesEnvironment(of: container)
                let sleep = container["lifecycle"]["preStop"]["sleep"]["seconds"].int
                let name = deployment["metadata"]["name"].string ?? "?"
                return DeployedContainer(
                    name: name,
                    location: "\(file): \(name)/\(container["name"].string ?? "?")",
                    manifest: container,
                    image: container["image"].string ?? "",
                    command: container["command"].items.compactMap(\.string),
                    environment: environment.values,
                    literalVariables: environment.literal,
                    substitutedVariables: environment.substituted,
                    // Kubernetes' defaults when the manifest leaves them out.
                    gracePeriodSeconds: pod["terminationGracePeriodSeconds"].int ?? 30,
                    preStopSeconds: sleep ?? 0
                )
            }
        }
    }

    /// Compose services built from the repository (the `build:` of `x-kiwi-service`); PostgreSQL and RabbitMQ are not.
    private func composeContainers() throws -> [DeployedContainer] {
        try compose["services"].entries.sorted { $0.key < $1.key }.filter { $0.value["build"].exists }.map { name, service in
            var environment: [String: String] = [:]
            var literal: Set<String> = []
            let declared: [(String, String)]
            if service["environment"].items.isEmpty {
                declared = service["environment"].entries.map { ($0.key, $0.value.scalarText ?? "") }
            } else {
                declared = service["environment"].items.compactMap(\.string).map { entry in
                    let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                    return (parts[0], parts.count > 1 ? parts[1] : "${\(parts[0])}")
                }
            }
            for (variable, value) in declared {
                environment[variable] = try composeVariables.interpolate(value)
                if !value.contains("${") { literal.insert(variable) }
            }
            let command: [String]
            if let text = service["command"].string {
                command = text.split(separator: " ").map(String.init)
            } else {
                command = try service["command"].items.compactMap(\.string).map(composeVariables.interpolate)
            }
            return DeployedContainer(
                name: name,
                location: "\(DeploymentFile.compose.rawValue): \(name)",
                manifest: service,
                image: try composeVariables.interpolate(service["image"].string ?? ""),
                command: command,
                environment: environment,
                literalVariables: literal,
                substitutedVariables: [],
                gracePeriodSeconds: try Self.seconds(service["stop_grace_period"].string ?? "10s"),
                preStopSeconds: 0
            )
        }
    }

    /// A Compose duration such as `90s`, `2m` or `1m30s`, in whole seconds.
    static func seconds(_ duration: String) throws -> Int {
        var total = 0
        var number = ""
        for character in duration {
            if character.isNumber {
                number.append(character)
            } else {
                let units = ["h": 3600, "m": 60, "s": 1]
                guard let value = Int(number), let unit = units[String(character)] else {
                    throw ManifestError("unsupported duration \(duration)")
                }
                total += value * unit
                number = ""
            }
        }
        guard number.isEmpty else { throw ManifestError("duration \(duration) lacks a unit") }
        return total
    }
}
