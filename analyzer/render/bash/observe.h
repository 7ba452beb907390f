// Syntax predicates and word classifiers behind the renderer's observations (defined in
// facts.cpp), shared by the evaluator's translation units. Private to analyzer/render/bash.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/script_observations.h"
#include "analyzer/render/bash/syntax.h"

namespace sbr::bash {

bool is_firewall_tool(const std::string& base);
// What a command (its words, first the command name) configures, if it is a security step.
std::optional<StepKind> security_step(const std::vector<std::string>& words);
// What a security step's words do to the traffic (step_effect.cpp).
StepEffect step_effect(const std::vector<std::string>& words);
// A `command` node's name and arguments as written (quotes of plain strings removed).
std::vector<std::string> written_words(TSNode cmd, const SyntaxTree* tree);
// The command node of a statement (a command or a redirected command), or a null node.
TSNode statement_command(TSNode n);
// Variables named by the expansions under `n`, in document order.
void expanded_variables(TSNode n, const SyntaxTree* tree, std::vector<std::string>& out,
                        int depth = 0);
// A `$?` expansion node under `n`.
bool reads_status(TSNode n, const SyntaxTree* tree, int depth = 0);
// A `=~` test node under `n` (`[[ $x =~ re ]]`); `=~` inside a string is not one.
bool regex_test(TSNode n, const SyntaxTree* tree);
// A command named `name` under `n`, outside nested function definitions (`break` in a loop
// body; the word in a string or a comment is not one).
bool runs_command(TSNode n, const SyntaxTree* tree, std::string_view name, int depth = 0);

// Commands whose output is the machine's own state (`ip route | awk ...`, `hostname -I`,
// `docker inspect`, `getent`, `dig +short NAME`, echo of a value piped to sed): see
// machine_state.cpp for the table.
bool machine_state_pipeline(const std::vector<TSNode>& stmts, const SyntaxTree* tree);
// What a command's words read of the host's own network configuration: "the default gateway
// (`ip route`)" for `ip route`/`ip r`/`/proc/net/route`, "the container network's subnet
// (`docker network inspect`)"; "" for anything else (Word::host_network, judged by SB5077).
std::string host_network_source(const std::vector<std::string>& words);
// The same for the first stage of a statement (a pipeline's producer).
std::string host_network_source(TSNode stmt, const SyntaxTree* tree);

}  // namespace sbr::bash
