import Foundation
import Testing

/// `deploy/k8s/postgres.yaml`: the CloudNativePG cluster that keeps the database through the loss of its primary,
/// and the services' way to it (docs/architecture.md, "When the primary dies").
@Suite("PostgreSQL in Kubernetes")
struct PostgresManifestTests {
    /// The one CloudNativePG Cluster, and its name.
    private static func cluster(in files: DeploymentFiles) throws -> (spec: YAMLValue, name: String) {
        let clusters = files.objects("Cluster")
        try #require(clusters.count == 1, "deploy/k8s has \(clusters.count) CloudNativePG Clusters")
        return (clusters[0]["spec"], try #require(clusters[0]["metadata"]["name"].string))
    }

    @Test("the cluster has three instances, so that a primary lost leaves a standby to promote and one to wait for")
    func instances() throws {
        #expect(try Self.cluster(in: DeploymentFiles()).spec["instances"].int == 3)
    }

    @Test("a commit waits for a standby, even when standbys are missing, so a promotion loses nothing Kiwi was told of")
    func synchronousReplication() throws {
        let synchronous = try Self.cluster(in: DeploymentFiles()).spec["postgresql"]["synchronous"]
        #expect((synchronous["number"].int ?? 0) >= 1)
        #expect(synchronous["dataDurability"].string == "required")
    }

    @Test("no two instances may run on one Kubernetes node")
    func antiAffinity() throws {
        let affinity = try Self.cluster(in: DeploymentFiles()).spec["affinity"]
        #expect(affinity["enablePodAntiAffinity"].bool == true)
        #expect(affinity["podAntiAffinityType"].string == "required")
        #expect(affinity["topologyKey"].string == "kubernetes.io/hostname")
    }

    @Test("the services reach the database at the cluster's read-write Service, which follows the primary")
    func servicesUseTheReadWriteService() throws {
        let files = try DeploymentFiles()
        let name = try Self.cluster(in: files).name
        let url = try #require(files.object("Secret", named: "kiwi-secrets")?["stringData"]["DATABASE_URL"].string)
        #expect(URLComponents(string: url)?.host == "\(name)-rw")
    }

    @Test("the cluster's owner is bootstrapped from a Secret the example defines")
    func ownerSecret() throws {
        let files = try DeploymentFiles()
        let secret = try #require(try Self.cluster(in: files).spec["bootstrap"]["initdb"]["secret"]["name"].string)
        #expect(files.object("Secret", named: secret)?["type"].string == "kubernetes.io/basic-auth")
    }
}
