// Sprig's random and key-making functions, which return fixed placeholders so that output is
// byte-identical between runs (docs/rendering.md, "Placeholders"): each keeps the shape charts
// rely on and the checks sprig makes before it draws randomness or makes a key, so a chart that
// fails in helm fails here too. getHostByName is helm's own: without --enable-dns it is "".
#include <fmt/format.h>

#include <string>
#include <vector>

#include "analyzer/render/helm/digest.h"
#include "analyzer/render/helm/exec.h"
#include "analyzer/render/helm/funcs.h"

namespace sbr::render::helm {

namespace {

using Args = std::vector<Value>;

constexpr const char* kBcryptPlaceholder = "$2a$10$SBREVIEW-PLACEHOLDER-BCRYPT";
constexpr const char* kCertPlaceholder = "SBREVIEW-PLACEHOLDER-CERT";

// bcrypt.GenerateFromPassword refuses more than 72 bytes; sprig prints the error.
std::string bcrypt_text(const std::string& password) {
  if (password.size() > 72)
    return "failed to encrypt string with bcrypt: bcrypt: password length exceeds 72 bytes";
  return kBcryptPlaceholder;
}

Value fn_bcrypt(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "bcrypt", at);
  return Value::string(bcrypt_text(text_of(a[0])));
}

Value fn_htpasswd(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "htpasswd", at);
  const std::string user = text_of(a[0]);
  if (user.find(':') != std::string::npos) return Value::string("invalid username: " + user);
  return Value::string(user + ":" + bcrypt_text(text_of(a[1])));
}

Value fn_derive_password(Exec&, Args& a, const Location& at) {
  arity(a, 5, 5, "derivePassword", at);
  static const char* const kTypes[] = {"maximum", "long", "medium", "short", "basic", "pin"};
  const std::string type = text_of(a[1]);
  for (const char* known : kTypes) {
    if (type == known) return Value::string("SBREVIEW-PLACEHOLDER-PASSWORD");
  }
  return Value::string("cannot find password template " + type);
}

Value fn_encrypt_aes(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "encryptAES", at);
  return Value::string(text_of(a[1]).empty() ? "" : "SBREVIEW-PLACEHOLDER-ENCRYPTED");
}

Value fn_decrypt_aes(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "decryptAES", at);
  const std::string crypt = text_of(a[1]);
  if (crypt.empty()) return Value::string("");
  // The checks sprig's decryption meets before the cipher runs (Go's panics, as helm reports
  // them; base64's byte offset is not given here).
  std::string bytes;
  auto fail = [&at](const std::string& why) {
    return RenderError("error calling decryptAES: " + why, at);
  };
  if (!base64_decode(crypt, bytes)) throw fail("illegal base64 data");
  if (bytes.size() < 16)
    throw fail(fmt::format("runtime error: slice bounds out of range [:16] with capacity {}",
                           bytes.size()));
  if (bytes.size() % 16 != 0) throw fail("crypto/cipher: input not full blocks");
  if (bytes.size() == 16) throw fail("runtime error: index out of range [-1]");
  return Value::string("SBREVIEW-PLACEHOLDER-DECRYPTED");
}

std::string pem_placeholder(const std::string& type) {
  return "-----BEGIN " + type + "-----\nSBREVIEW-PLACEHOLDER-KEY\n-----END " + type + "-----\n";
}

Value fn_gen_private_key(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "genPrivateKey", at);
  const std::string type = text_of(a[0]);
  if (type.empty() || type == "rsa") return Value::string(pem_placeholder("RSA PRIVATE KEY"));
  if (type == "dsa") return Value::string(pem_placeholder("DSA PRIVATE KEY"));
  if (type == "ecdsa") return Value::string(pem_placeholder("EC PRIVATE KEY"));
  if (type == "ed25519") return Value::string(pem_placeholder("PRIVATE KEY"));
  return Value::string("Unknown type " + type);
}

// The first PEM block of `text` (pem.Decode finds it anywhere), written back as
// pem.EncodeToMemory would; false when there is none.
bool first_pem_block(const std::string& text, std::string& block) {
  const std::size_t begin = text.find("-----BEGIN ");
  if (begin == std::string::npos) return false;
  const std::size_t type_end = text.find("-----", begin + 11);
  if (type_end == std::string::npos) return false;
  const std::string type = text.substr(begin + 11, type_end - begin - 11);
  const std::string end_line = "-----END " + type + "-----";
  const std::size_t end = text.find(end_line, type_end);
  if (end == std::string::npos) return false;
  block = text.substr(begin, end + end_line.size() - begin) + "\n";
  return true;
}

// A private key in PEM: sprig's parsePrivateKeyPEM message when there is none.
std::string key_param(const Value& v, const char* name, const Location& at) {
  std::string block;
  if (!first_pem_block(text_of(v), block))
    throw RenderError(
        fmt::format("error calling {}: parsing private key: no PEM data in input", name), at);
  return block;
}

Value cert_with_key(const std::string& key) {
  return Value::new_map({{"Cert", Value::string(kCertPlaceholder)}, {"Key", Value::string(key)}});
}

Value fn_gen_ca_with_key(Exec&, Args& a, const Location& at) {
  arity(a, 3, 3, "genCAWithKey", at);
  return cert_with_key(key_param(a[2], "genCAWithKey", at));
}

Value fn_gen_self_signed_with_key(Exec&, Args& a, const Location& at) {
  arity(a, 5, 5, "genSelfSignedCertWithKey", at);
  return cert_with_key(key_param(a[4], "genSelfSignedCertWithKey", at));
}

Value fn_gen_signed_with_key(Exec&, Args& a, const Location& at) {
  arity(a, 6, 6, "genSignedCertWithKey", at);
  return cert_with_key(key_param(a[5], "genSignedCertWithKey", at));
}

// buildCustomCert makes nothing: it decodes the chart's own certificate and key, which come
// back as they were given. The certificate's DER is not checked as x509 would.
Value fn_build_custom_cert(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "buildCustomCert", at);
  std::string cert, key, block;
  auto fail = [&at](const char* why) {
    return RenderError(std::string("error calling buildCustomCert: ") + why, at);
  };
  if (!base64_decode(text_of(a[0]), cert)) throw fail("unable to decode base64 certificate");
  if (!base64_decode(text_of(a[1]), key)) throw fail("unable to decode base64 private key");
  if (!first_pem_block(cert, block)) throw fail("unable to decode certificate");
  if (!first_pem_block(key, block)) throw fail("error parsing private key: no PEM data in input");
  return Value::new_map({{"Cert", Value::string(cert)}, {"Key", Value::string(key)}});
}

// randBytes N: N zero bytes, base64-encoded.
Value fn_rand_bytes(Exec& ex, Args& a, const Location& at) {
  arity(a, 1, 1, "randBytes", at);
  const std::int64_t n = int_of(a[0]);
  if (n < 0)
    throw RenderError("error calling randBytes: runtime error: makeslice: len out of range", at);
  ex.charge(static_cast<std::uint64_t>(n) / 3 * 4 + 4, "randBytes", at);
  return Value::string(base64_encode(std::string(static_cast<std::size_t>(n), '\0')));
}

// randInt MIN MAX: MIN, the lowest value rand.Intn could give; Intn refuses an empty range.
Value fn_rand_int(Exec&, Args& a, const Location& at) {
  arity(a, 2, 2, "randInt", at);
  const std::int64_t min = int_of(a[0]), max = int_of(a[1]);
  if (max - min <= 0) throw RenderError("error calling randInt: invalid argument to Intn", at);
  return Value::integer(min);
}

Value fn_shuffle(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "shuffle", at);
  return Value::string(text_of(a[0]));
}

Value fn_get_host_by_name(Exec&, Args& a, const Location& at) {
  arity(a, 1, 1, "getHostByName", at);
  return Value::string("");
}

}  // namespace

void add_crypto_functions(FunctionTable& t) {
  t["bcrypt"] = fn_bcrypt;
  t["htpasswd"] = fn_htpasswd;
  t["derivePassword"] = fn_derive_password;
  t["encryptAES"] = fn_encrypt_aes;
  t["decryptAES"] = fn_decrypt_aes;
  t["genPrivateKey"] = fn_gen_private_key;
  t["genCAWithKey"] = fn_gen_ca_with_key;
  t["genSelfSignedCertWithKey"] = fn_gen_self_signed_with_key;
  t["genSignedCertWithKey"] = fn_gen_signed_with_key;
  t["buildCustomCert"] = fn_build_custom_cert;
  t["randBytes"] = fn_rand_bytes;
  t["randInt"] = fn_rand_int;
  t["shuffle"] = fn_shuffle;
  t["getHostByName"] = fn_get_host_by_name;
}

}  // namespace sbr::render::helm
