"""The secret ruleset, as data: one row per kind, in the shape of gitleaks' rules.

Each rule is `(id, keywords, regex, check)`. A rule runs only when one of its lower-case keywords occurs
in the lower-cased text (so most text costs one substring search per keyword and no regex at all); an
empty keyword tuple means the rule runs whenever the text holds a long unbroken token. The secret is
the regex's `secret` group when it has one, else the whole match. `check` names a validator in
`consolidate.secrets` that a match must pass (placeholders, English words and identifiers are not
secrets); "" accepts every match. A `(?i)` rule is matched against the lower-cased text, so its literals
are written in lower case.

Token formats are the providers' published ones. To add a kind: a row here, and a generated example
in `tests/reliability/secret_corpus.py` (the corpus test fails for a kind it cannot find).
"""

from __future__ import annotations

_B62 = "[A-Za-z0-9]"


def _wrapped(chars: str) -> str:
    """A token body that a terminal or an editor may have wrapped: a run of `chars`, then maybe a line
    break (or the space it became) and a second run. The `wrap` check joins the two only when together
    they have the token's exact length."""
    return rf"(?P<a>{chars}{{1,300}})(?:(?:[ \t]*\r?\n[ \t]*|[ ])(?P<b>{chars}{{1,300}}))?"


# Where a labeled value ends: whitespace, a quote, or `;`/`,` that starts the next `Key=` field.
_VALUE = r"(?:[^\s\"'`;,]|[;,](?![ \t]*[A-Za-z_][A-Za-z0-9_ ]*=)(?=[^\s\"'`]))+"
_QUOTED = r"\"(?P<dq>[^\"\n]{3,200})\"|'(?P<sq>[^'\n]{3,200})'|`(?P<bq>[^`\n]{3,200})`"
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"

RULES: tuple[tuple[str, tuple[str, ...], str, str], ...] = (
    # --- key material -------------------------------------------------------------------------------
    (
        "private-key",
        ("private key",),
        r"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
        r"(?:-----END[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----|\Z)",
        "",
    ),
    ("age-secret-key", ("age-secret-key-1",), r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", ""),
    (
        "gcp-private-key-id",
        ("private_key_id",),
        r"\"private_key_id\"\s*:\s*\"(?P<secret>[a-f0-9]{40})\"",
        "",
    ),
    # --- provider tokens with a published prefix ------------------------------------------------------
    ("anthropic-key", ("sk-ant-",), r"\bsk-ant-[A-Za-z0-9_\-]{16,}", ""),
    ("openai-key", ("sk-",), r"\bsk-(?:proj-|svcacct-|admin-|live-|test-)?[A-Za-z0-9_\-]{20,}", ""),
    (
        "github-token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        rf"\bgh[pousr]_{_wrapped(_B62)}",
        "wrap:36:30",
    ),
    (
        "github-token",
        ("github_pat_",),
        rf"\bgithub_pat_{_wrapped('[A-Za-z0-9_]')}",
        "wrap:82:40",
    ),
    (
        "gitlab-token",
        ("glpat-", "gldt-", "glptt-", "glrt-", "glsoat-", "glcbt-", "glft-", "glimt-", "gloas-", "glagent-"),
        rf"\bgl(?:pat|dt|ptt|rt|soat|cbt|ft|imt|oas|agent)-{_wrapped('[A-Za-z0-9_-]')}",
        "wrap:20:20",
    ),
    (
        "aws-access-key",
        ("akia", "asia", "abia", "acca", "a3t"),
        r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b",
        "",
    ),
    (
        "aws-secret-key",
        ("aws",),
        r"(?i)aws[\w .-]{0,24}?(?:secret|key)[\w .-]{0,24}?[=:\"'\s]+(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        "",
    ),
    (
        "slack-token",
        ("xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxs-", "xoxr-", "xoxe"),
        r"\bxox(?:[abposr]|e(?:\.xox[bp])?)-[A-Za-z0-9-]{10,}",
        "",
    ),
    ("slack-app-token", ("xapp-",), r"\bxapp-[A-Za-z0-9-]{10,}", ""),
    (
        "slack-webhook",
        ("hooks.slack.com",),
        r"https?://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_+-]{16,}",
        "",
    ),
    (
        "discord-webhook",
        ("discord.com/api/webhooks", "discordapp.com/api/webhooks"),
        r"https?://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{20,}",
        "",
    ),
    ("google-api-key", ("aiza",), r"\bAIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])", ""),
    ("google-oauth-secret", ("gocspx-",), r"\bGOCSPX-[A-Za-z0-9_-]{24,}", ""),
    (
        "stripe-key",
        ("sk_live_", "sk_test_", "rk_live_", "rk_test_"),
        r"\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}",
        "",
    ),
    ("stripe-webhook-secret", ("whsec_",), r"\bwhsec_[A-Za-z0-9+/=]{20,}", ""),
    ("huggingface-token", ("hf_",), rf"\bhf_{_wrapped(_B62)}", "wrap:34:30"),
    ("npm-token", ("npm_",), rf"\bnpm_{_wrapped(_B62)}", "wrap:36:36"),
    ("pypi-token", ("pypi-ageichlwas5vcmc",), r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{40,}", ""),
    ("sendgrid-key", ("sg.",), r"\bSG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}", ""),
    ("twilio-key", ("sk",), r"\bSK[0-9a-fA-F]{32}\b", ""),
    ("mailgun-key", ("key-",), r"\bkey-[0-9a-zA-Z]{32}\b", ""),
    ("mailchimp-key", ("-us",), r"\b[0-9a-f]{32}-us\d{1,2}\b", ""),
    ("telegram-bot-token", (":aa",), r"\b\d{8,10}:AA[A-Za-z0-9_-]{32,33}\b", ""),
    ("square-token", ("sq0atp-", "sq0csp-"), r"\bsq0(?:atp|csp)-[0-9A-Za-z_-]{22,60}", ""),
    (
        "shopify-token",
        ("shpat_", "shpss_", "shpca_", "shppa_"),
        r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b",
        "",
    ),
    ("digitalocean-token", ("dop_v1_", "doo_v1_", "dor_v1_"), r"\bdo[opr]_v1_[a-f0-9]{64}\b", ""),
    ("databricks-token", ("dapi",), r"\bdapi[a-f0-9]{32}(?:-\d)?\b", ""),
    ("vault-token", ("hvs.", "hvb."), r"\bhv[sb]\.[A-Za-z0-9_-]{24,}", ""),
    (
        "doppler-token",
        ("dp.pt.", "dp.st.", "dp.ct."),
        r"\bdp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,}",
        "",
    ),
    ("linear-key", ("lin_api_",), r"\blin_api_[A-Za-z0-9]{40}\b", ""),
    ("postman-key", ("pmak-",), r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b", ""),
    ("atlassian-token", ("atatt3",), r"\bATATT3[A-Za-z0-9_\-=]{60,}", ""),
    ("newrelic-key", ("nrak-",), r"\bNRAK-[A-Z0-9]{27}\b", ""),
    ("sentry-dsn", ("sentry",), r"https?://(?P<secret>[a-f0-9]{32})@[A-Za-z0-9.-]*sentry\.io", ""),
    ("jwt", ("eyj",), r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", ""),
    (
        "azure-storage-key",
        ("accountkey", "sharedaccesskey"),
        r"(?i)\b(?:accountkey|sharedaccesskey)\s*=\s*(?P<secret>[A-Za-z0-9+/]{20,}={0,2})",
        "",
    ),
    ("azure-sas", ("sig=",), r"(?i)[?&]sig=(?P<secret>[A-Za-z0-9%+/]{20,}(?:=|%3D){0,2})", ""),
    (
        "heroku-api-key",
        ("heroku",),
        rf"(?i)\bheroku[\w .-]{{0,30}}?[=:\s\"']+(?P<secret>{_UUID})\b",
        "",
    ),
    # --- credentials in HTTP and URLs -----------------------------------------------------------------
    ("bearer-token", ("bearer",), r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9_\-.=~+/]{16,})", ""),
    (
        "basic-auth",
        ("basic",),
        r"(?i)\bbasic\s+(?P<secret>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])",
        "basic",
    ),
    # user:password@host; the password may hold `@` itself: the host is after the last one.
    (
        "url-credentials",
        ("://",),
        r"(?<=://)(?P<secret>[^/\s:@\"'<>`]{0,200}:[^\s/\"'<>`]{1,400}?)@(?=[A-Za-z0-9\[][^\s@/\"'<>`]*(?:[/\s\"'<>`]|$))",
        "url",
    ),
    # --- command lines --------------------------------------------------------------------------------
    (
        "cli-password",
        ("mysql", "mariadb"),
        r"(?i)\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlsh|mariadb)\b[^\n|;&]{0,200}?\s-p(?:"
        + _QUOTED
        + r"|(?P<secret>[^\s'\"-][^\s'\"]*))",
        "value",
    ),
    (
        "cli-password",
        ("sshpass",),
        r"(?i)\bsshpass\s+-p\s*(?:" + _QUOTED + r"|(?P<secret>[^\s'\"]+))",
        "value",
    ),
    (
        "cli-password",
        ("redis-cli",),
        r"(?i)\bredis-cli\b[^\n|;&]{0,200}?\s-a\s+(?:" + _QUOTED + r"|(?P<secret>[^\s'\"]+))",
        "value",
    ),
    (
        "cli-password",
        ("--pass", "--token", "--api-key", "--secret", "--auth"),
        r"(?i)--(?:password|passwd|pass|token|api-key|apikey|secret|auth-token|client-secret)[ =](?:"
        + _QUOTED
        + r"|(?P<secret>[^\s'\"-][^\s'\"]*))",
        "value",
    ),
    (
        "cli-credentials",
        ("-u", "--user"),
        r"(?:^|[\s'\"])(?:-u|--user)[ =]?['\"]?[^\s:'\"]{1,100}:(?P<secret>[^\s'\"]{3,})",
        "value",
    ),
    (
        "cli-password",
        ("docker login", "podman login"),
        r"(?i)\b(?:docker|podman)\s+login\b[^\n|;&]{0,200}?\s(?:-p|--password)[ =](?:"
        + _QUOTED
        + r"|(?P<secret>[^\s'\"]+))",
        "value",
    ),
    # --- labeled values: `NAME=value`, `"name": "value"`, `name: value` ----------------------------------
    (
        "assigned-secret",
        ("pass", "pwd", "pw", "secret", "token", "key", "auth", "credential"),
        r"(?i)(?:password|passwd|passphrase|secrets?|token|(?<![A-Za-z0-9])(?:pass|pwd|pw|auth|credentials?|"
        r"(?:api|access|secret|auth|private)[_-]?key|apikey|client[_-]?secret|auth[_-]?token))"
        r"(?:[_-](?:base|value))?[\"']?[ \t]*(?:=|:=|=>|\?=|:)[ \t]*(?:"
        + _QUOTED
        + r"|(?P<secret>"
        + _VALUE
        + r"))",
        "assigned",
    ),
    # --- prose: "the password is X", "password was X", "secret key X" --------------------------------------
    (
        "password-prose",
        ("pass", "pwd", "pin"),
        r"(?i)\b(?:password|passphrase|passwd|pwd|pass ?code|pin)\b(?:[ \t]+[\w.@/'-]+){0,4}?[ \t]+"
        r"(?:is|was|is now|was changed to|is set to|was set to|became|reads|=|:)[ \t]+"
        r"(?:" + _QUOTED + r"|(?P<secret>[^\s\"'`]+))",
        "prose",
    ),
    (
        "passphrase",
        ("pass",),
        r"(?i)\b(?:password|passphrase|passwd)\b[ \t]*(?:is|was|:|=)[ \t]*"
        r"(?P<secret>[a-z]{3,}(?:[ -][a-z]{3,}){2,9})",
        "passphrase",
    ),
    (
        "labeled-secret",
        ("secret", "key", "token"),
        r"(?i)\b(?:secret key|secret|api key|access key|auth key|token|auth token|private key|client secret|signing key)"
        r"[ \t]+(?:(?:is|was|of|=|:)[ \t]+)?(?P<secret>[A-Za-z0-9_\-+/=.~!@#$%^&*]{8,})",
        "random",
    ),
    # --- shapes: no telling word, only the look of a token --------------------------------------------------
    ("hex-token", (), r"[0-9a-fA-F]{32,}", "hex"),
    ("high-entropy-token", (), r"[A-Za-z0-9+/_\-]{24,}={0,2}", "entropy"),
)
