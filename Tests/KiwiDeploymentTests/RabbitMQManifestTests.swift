import Foundation
import KiwiMessaging
import KiwiTopology
import Testing

@testable import KiwiNotifier
@testable import KiwiScanWorker

/// `deploy/k8s/rabbitmq.yaml` and `rabbitmq-topology.yaml`: the broker cluster the operators run, and the exchanges
/// and queues they declare, against the code that connects to them and declares them too.
@Suite("RabbitMQ in Kubernetes")
struct RabbitMQManifestTests {
    /// The one RabbitmqCluster, and the name its operator gives its pods' `app.kubernetes.io/name` label, its client
    /// Service and its generated Secret's prefix.
    private static func cluster(in files: DeploymentFiles) throws -> (object: YAMLValue, name: String, replicas: Int) {
        let clusters = files.rabbitmqClusters
        try #require(clusters.count == 1, "deploy/k8s has \(clusters.count) RabbitmqClusters")
        let name = try #require(clusters[0]["metadata"]["name"].string)
        let replicas = try #require(clusters[0]["spec"]["replicas"].int, "the operator's default is one node")
        return (clusters[0], name, replicas)
    }

    /// The nodes a quorum queue needs up to accept and deliver messages: a majority of the cluster.
    private static func majority(of replicas: Int) -> Int {
        replicas / 2 + 1
    }

    @Test("the cluster has an odd number of nodes, at least three, so that it survives the loss of one")
    func replicas() throws {
        let replicas = try Self.cluster(in: DeploymentFiles()).replicas
        #expect(replicas >= 3 && replicas % 2 == 1, "\(replicas) nodes")
    }

    @Test("no two RabbitMQ nodes may run on one Kubernetes node")
    func antiAffinity() throws {
        let (cluster, name, _) = try Self.cluster(in: DeploymentFiles())
        let terms = cluster["spec"]["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"].items
        let spread = terms.contains { term in
            term["topologyKey"].string == "kubernetes.io/hostname"
                && term["labelSelector"]["matchLabels"].entries.compactMapValues(\.string) == ["app.kubernetes.io/name": name]
        }
        #expect(spread, "a preferred rule lets two nodes share a host, whose loss is then a majority loss")
    }

    @Test("a PodDisruptionBudget lets no more RabbitMQ nodes be evicted at once than keep a majority up")
    func disruptionBudget() throws {
        let files = try DeploymentFiles()
        let (_, name, replicas) = try Self.cluster(in: files)
        let budgets = files.objects("PodDisruptionBudget").filter {
            $0["spec"]["selector"]["matchLabels"].entries.compactMapValues(\.string) == ["app.kubernetes.io/name": name]
        }
        try #require(budgets.count == 1, "\(budgets.count) PodDisruptionBudgets select the pods of \(name)")
        let unavailable = try #require(budgets[0]["spec"]["maxUnavailable"].int, "maxUnavailable, as a number of pods")
        #expect((1...(replicas - Self.majority(of: replicas))).contains(unavailable), "maxUnavailable \(unavailable) of \(replicas)")
    }

    @Test("the nodes have memory requested as limited, and persistent storage")
    func resources() throws {
        let spec = try Self.cluster(in: DeploymentFiles()).object["spec"]
        let memory = spec["resources"]["requests"]["memory"].string
        #expect(memory != nil && memory == spec["resources"]["limits"]["memory"].string)
        #expect(spec["resources"]["limits"]["cpu"].exists)
        #expect(spec["persistence"]["storage"].string != nil)
    }

    @Test("quorum queues are grown back to a replica on every node")
    func membershipReconciliation() throws {
        let (cluster, _, replicas) = try Self.cluster(in: DeploymentFiles())
        var settings: [String: String] = [:]
        for line in (cluster["spec"]["rabbitmq"]["additionalConfig"].string ?? "").split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, !parts[0].hasPrefix("#") { settings[parts[0]] = parts[1] }
        }
        #expect(settings["quorum_queue.continuous_membership_reconciliation.enabled"] == "true")
        #expect(settings["quorum_queue.continuous_membership_reconciliation.target_group_size"] == String(replicas))
    }

    @Test("every service connects to the cluster's client Service as the user its operator generated")
    func servicesConnectToTheCluster() throws {
        let files = try DeploymentFiles()
        let name = try Self.cluster(in: files).name
        let user = try #require(files.generatedSecret(named: "\(name)-default-user"))
        for (_, container) in try files.serviceContainers(in: .kubernetes) {
            let url = try #require(container.environment["AMQP_URL"].flatMap { URLComponents(string: $0) }, "\(container.location)")
            #expect(url.scheme == "amqp" && url.host == name && (url.port ?? 5672) == 5672, "\(container.location)")
            #expect(url.user == user["username"] && url.password == user["password"], "\(container.location)")
            #expect(url.percentEncodedPath == "/%2F", "\(container.location): the virtual host the topology objects use is /")
        }
    }

    @Test("the topology objects declare exactly the durable exchanges, queues and bindings the services declare")
    func topologyMatchesTheCode() throws {
        let files = try DeploymentFiles()
        let worker = try ScanWorkerConfiguration(environment: files.container(running: .scanWorker, in: .kubernetes).environment)
        let notifier = try NotifierConfiguration(environment: files.container(running: .notifier, in: .kubernetes).environment)
        let declared = KiwiTopology.scanJobs(queue: worker.jobQueue).merging(KiwiTopology.revocations)
            .merging(KiwiTopology.scanEvents).merging(KiwiTopology.kitchenNews).merging(KiwiTopology.scanNotifications(queue: notifier.queue))
        let manifests = try ManifestTopology(files)
        // What an operator is told on a mismatch is Kiwi's, not the broker's: compared without it.
        let code = Set(
            declared.queues.filter { !$0.exclusive }.map { queue in
                var queue = queue
                queue.mismatchAdvice = nil
                return queue
            }
        )
        Self.expectSame("queues", manifests: manifests.queues, code: code)
        Self.expectSame("exchanges", manifests: manifests.exchanges, code: Set(declared.exchanges))
        Self.expectSame("bindings", manifests: manifests.bindings, code: Set(declared.bindings))
        Self.expectSame("exchange bindings", manifests: manifests.exchangeBindings, code: Set(declared.exchangeBindings))
    }

    /// Expects `manifests` and `code` to hold the same declarations, naming those only one of them holds.
    private static func expectSame<Declaration: Hashable>(
        _ kind: String,
        manifests: Set<Declaration>,
        code: Set<Declaration>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (onlyManifests, onlyCode) = (manifests.subtracting(code), code.subtracting(manifests))
        #expect(
            onlyManifests.isEmpty && onlyCode.isEmpty,
            "\(kind) only in deploy/k8s: \(onlyManifests); only in KiwiTopology: \(onlyCode)",
            sourceLocation: sourceLocation
        )
    }

    @Test("the topology objects are declared on the cluster, and its queues outlive their objects")
    func topologyObjects() throws {
        let files = try DeploymentFiles()
        let name = try Self.cluster(in: files).name
        for kind in ManifestTopology.kinds {
            for object in files.objects(kind) {
                let location = "\(kind) \(object["metadata"]["name"].string ?? "?")"
                #expect(object["spec"]["rabbitmqClusterReference"]["name"].string == name, "\(location)")
                #expect(!object["spec"]["rabbitmqClusterReference"]["namespace"].exists, "\(location): the cluster is in its namespace")
                #expect((object["spec"]["vhost"].string ?? "/") == "/", "\(location)")
                if kind == "Queue" { #expect(object["spec"]["deletionPolicy"].string == "retain", "\(location)") }
            }
        }
    }

    @Test("every object in deploy/k8s has the API version of its kind")
    func apiVersions() throws {
        let versions = [
            "ConfigMap": "v1", "Secret": "v1", "Service": "v1", "Deployment": "apps/v1", "PodDisruptionBudget": "policy/v1",
            "HorizontalPodAutoscaler": "autoscaling/v2", "Kustomization": "kustomize.config.k8s.io/v1beta1",
            "ScaledObject": "keda.sh/v1alpha1", "TriggerAuthentication": "keda.sh/v1alpha1",
            "RabbitmqCluster": "rabbitmq.com/v1beta1", "Queue": "rabbitmq.com/v1beta1", "Exchange": "rabbitmq.com/v1beta1",
            "Binding": "rabbitmq.com/v1beta1", "Cluster": "postgresql.cnpg.io/v1",
        ]
        for (file, object) in try DeploymentFiles().kubernetes {
            let kind = object["kind"].string ?? "?"
            #expect(versions[kind] != nil && object["apiVersion"].string == versions[kind], "\(file): \(kind) \(object["apiVersion"].string ?? "?")")
        }
    }
}

/// The Messaging Topology Operator's objects in `deploy/k8s`, read as what they declare on the broker.
struct ManifestTopology {
    static let kinds = ["Queue", "Exchange", "Binding"]

    let queues: Set<AMQPQueue>
    let exchanges: Set<AMQPExchange>
    let bindings: Set<AMQPBinding>
    let exchangeBindings: Set<AMQPExchangeBinding>

    init(_ files: DeploymentFiles) throws {
        queues = Set(try files.objects("Queue").map(Self.queue))
        exchanges = Set(try files.objects("Exchange").map(Self.exchange))
        let bindings = files.objects("Binding")
        self.bindings = Set(try bindings.filter { $0["spec"]["destinationType"].string == "queue" }.map(Self.binding))
        exchangeBindings = Set(try bindings.filter { $0["spec"]["destinationType"].string == "exchange" }.map(Self.exchangeBinding))
        let other = bindings.filter { !["queue", "exchange"].contains($0["spec"]["destinationType"].string) }
        guard other.isEmpty else { throw ManifestError("Bindings of neither a queue nor an exchange: \(other.count)") }
    }

    /// A Queue as its operator declares it: `durable` defaults to true (its admission webhook), `type` is the queue's
    /// `x-queue-type`. An argument Kiwi does not declare is an error.
    private static func queue(_ object: YAMLValue) throws -> AMQPQueue {
        let spec = object["spec"]
        let name = try #require(spec["name"].string)
        let kind = try #require(AMQPQueue.Kind(rawValue: spec["type"].string ?? "classic"), "queue \(name)'s type")
        var queue = AMQPQueue(name: name, kind: kind, durable: spec["durable"].bool ?? true, autoDelete: spec["autoDelete"].bool ?? false)
        for (argument, value) in spec["arguments"].entries {
            switch argument {
            case "x-dead-letter-exchange": queue.deadLetterExchange = value.string
            case "x-message-ttl": queue.messageTTL = value.int.map { .milliseconds($0) }
            case "x-max-length-bytes": queue.maxLengthBytes = value.int
            case "x-delivery-limit": queue.deliveryLimit = value.int
            default: throw ManifestError("queue \(name) has argument \(argument), which KiwiTopology never declares")
            }
        }
        return queue
    }

    /// An Exchange as its operator declares it: not durable unless it says so.
    private static func exchange(_ object: YAMLValue) throws -> AMQPExchange {
        let spec = object["spec"]
        let name = try #require(spec["name"].string)
        let kind = try #require(AMQPExchange.Kind(rawValue: spec["type"].string ?? "direct"), "exchange \(name)'s type")
        guard !spec["arguments"].exists, spec["autoDelete"].bool != true else { throw ManifestError("exchange \(name) is declared otherwise") }
        return AMQPExchange(name: name, kind: kind, durable: spec["durable"].bool ?? false)
    }

    private static func binding(_ object: YAMLValue) throws -> AMQPBinding {
        let (destination, source, routingKey) = try parts(of: object)
        return AMQPBinding(queue: destination, exchange: source, routingKey: routingKey)
    }

    private static func exchangeBinding(_ object: YAMLValue) throws -> AMQPExchangeBinding {
        let (destination, source, routingKey) = try parts(of: object)
        return AMQPExchangeBinding(destination: destination, source: source, routingKey: routingKey)
    }

    /// A Binding's destination, source and routing key; one with arguments is an error, as Kiwi declares none.
    private static func parts(of object: YAMLValue) throws -> (destination: String, source: String, routingKey: String) {
        let spec = object["spec"]
        guard !spec["arguments"].exists else { throw ManifestError("Binding \(object["metadata"]["name"].string ?? "?") has arguments") }
        return (try #require(spec["destination"].string), try #require(spec["source"].string), spec["routingKey"].string ?? "")
    }
}
