/**
 * A throwaway certificate authority and a server certificate for given host names, made with
 * the `openssl` command (Debian's openssl package), for tests of https fetches on loopback.
 * @module
 */

/** PEM texts: the CA to trust, and the server's certificate and key. */
export interface TestCertificate {
  readonly caPem: string;
  readonly certPem: string;
  readonly keyPem: string;
}

async function openssl(dir: string, args: string[]): Promise<void> {
  const out = await new Deno.Command("openssl", { args, cwd: dir, stdout: "null", stderr: "piped" })
    .output();
  if (!out.success) {
    throw new Error(`openssl ${args[0]} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/**
 * A new CA and a certificate it signed for `names` (subject alternative names: IP literals as
 * addresses, the others as DNS names, wildcards allowed).
 */
export async function makeTestCertificate(names: readonly string[]): Promise<TestCertificate> {
  const dir = await Deno.makeTempDir({ prefix: "statusd-tls-" });
  try {
    await openssl(dir, [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-days",
      "2",
      "-subj",
      "/CN=statusd test CA",
    ]);
    await openssl(dir, [
      "req",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "key.pem",
      "-out",
      "leaf.csr",
      "-subj",
      `/CN=${names[0]}`,
    ]);
    await Deno.writeTextFile(
      `${dir}/ext.cnf`,
      `subjectAltName=${
        names.map((n) => /^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`).join(",")
      }\nbasicConstraints=CA:FALSE\n`,
    );
    await openssl(dir, [
      "x509",
      "-req",
      "-in",
      "leaf.csr",
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      "cert.pem",
      "-days",
      "2",
      "-extfile",
      "ext.cnf",
    ]);
    return {
      caPem: await Deno.readTextFile(`${dir}/ca.pem`),
      certPem: await Deno.readTextFile(`${dir}/cert.pem`),
      keyPem: await Deno.readTextFile(`${dir}/key.pem`),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
