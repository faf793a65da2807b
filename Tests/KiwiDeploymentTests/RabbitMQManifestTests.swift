import Foundation
import Testing

/// `deploy/k8s/rabbitmq.yaml`: the broker cluster the RabbitMQ Cluster Operator runs, against the services that
/// connect to it.
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

    @Test("every object in deploy/k8s has the API version of its kind")
    func apiVersions() throws {
        let versions = [
            "ConfigMap": "v1", "Secret": "v1", "Service": "v1", "Deployment": "apps/v1", "PodDisruptionBudget": "policy/v1",
            "HorizontalPodAutoscaler": "autoscaling/v2", "Kustomization": "kustomize.config.k8s.io/v1beta1",
            "ScaledObject": "keda.sh/v1alpha1", "TriggerAuthentication": "keda.sh/v1alpha1",
            "RabbitmqCluster": "rabbitmq.com/v1beta1",
        ]
        for (file, object) in try DeploymentFiles().kubernetes {
            let kind = object["kind"].string ?? "?"
            #expect(versions[kind] != nil && object["apiVersion"].string == versions[kind], "\(file): \(kind) \(object["apiVersion"].string ?? "?")")
        }
    }
}
