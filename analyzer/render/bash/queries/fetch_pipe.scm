; A download piped into another program, for facts.cpp (note_fetch_pipes): which later stage
; runs the fetched bytes is for the checks to judge.
;   curl -fsSL https://get.example.sh | sudo bash
;   wget -qO- "$URL" 2>/dev/null | tee install.log | sh -s -- --yes
;   "curl" -fsSL https://x | sh        (a quoted name runs the same program)
; Stages need not be adjacent: every later stage is a sink of the download.
(pipeline
  [(command name: (command_name) @fetcher)
   (redirected_statement body: (command name: (command_name) @fetcher))] @fetch
  (#any-of? @fetcher "curl" "wget" "fetch" "\"curl\"" "\"wget\"" "\"fetch\"" "'curl'" "'wget'"
    "'fetch'")
  [(command) (redirected_statement)] @sink) @pipe
