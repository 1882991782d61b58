//! Calls to a server running on a socket, and reading the tables it answers, for the tests
//! that talk to one over HTTP: the server's and the CLI's.

use serde_json::Value;
use std::net::SocketAddr;

/// Creates a table on the server at `addr`; panics unless it is created.
pub async fn create_table(http: &reqwest::Client, addr: SocketAddr, body: &Value) -> Value {
    let answer = http
        .post(format!("http://{addr}/api/tables"))
        .json(body)
        .send()
        .await
        .expect("create");
    assert_eq!(answer.status(), 201, "create {body}");
    answer.json().await.expect("JSON")
}

/// The JSON `url` answers; panics unless it answers 200.
pub async fn get_json(http: &reqwest::Client, url: &str) -> Value {
    let answer = http.get(url).send().await.expect("GET");
    assert_eq!(answer.status(), 200, "{url}");
    answer.json().await.expect("JSON")
}

/// Sends `request` as the holder of `token`: the status and the JSON answered.
pub async fn send_as(request: reqwest::RequestBuilder, token: &str) -> (u16, Value) {
    let answer = request.bearer_auth(token).send().await.expect("request");
    let status = answer.status().as_u16();
    (status, answer.json().await.expect("JSON"))
}

/// The record the server at `addr` publishes for table `id`.
pub async fn record(http: &reqwest::Client, addr: SocketAddr, id: &str) -> engine::GameRecord {
    let answer = get_json(http, &format!("http://{addr}/api/tables/{id}/record")).await;
    serde_json::from_value(answer["record"].clone()).expect("a record")
}

/// The `Retry-After` seconds of an answer, when it has them.
pub fn retry_after(answer: &reqwest::Response) -> Option<u64> {
    answer
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

/// Each seat's token of a created table, `None` for a seat without one (a bot's).
pub fn tokens(table: &Value) -> Vec<Option<String>> {
    (table["seats"].as_array().expect("seats").iter())
        .map(|s| s["token"].as_str().map(str::to_string))
        .collect()
}
