package llm

// Usage is the token count of one assistant message and what it cost, in pi's shape. Input
// counts only the uncached input tokens; CacheRead and CacheWrite count the cached ones.
type Usage struct {
	Input       int  `json:"input"`
	Output      int  `json:"output"`
	CacheRead   int  `json:"cacheRead"`
	CacheWrite  int  `json:"cacheWrite"`
	TotalTokens int  `json:"totalTokens"`
	Cost        Cost `json:"cost"`
}

// Cost is a price in US dollars, split the way Usage is.
type Cost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Total      float64 `json:"total"`
}

// ContextTokens is how much of the context window the message's request and answer filled:
// every input token, cached or not, plus the output (pi's calculateContextTokens).
func (u Usage) ContextTokens() int {
	return u.Input + u.Output + u.CacheRead + u.CacheWrite
}

// Add returns the sum of u and v, token counts and cost alike.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		Input: u.Input + v.Input, Output: u.Output + v.Output,
		CacheRead: u.CacheRead + v.CacheRead, CacheWrite: u.CacheWrite + v.CacheWrite,
		TotalTokens: u.TotalTokens + v.TotalTokens,
		Cost: Cost{
			Input: u.Cost.Input + v.Cost.Input, Output: u.Cost.Output + v.Cost.Output,
			CacheRead: u.Cost.CacheRead + v.Cost.CacheRead, CacheWrite: u.Cost.CacheWrite + v.Cost.CacheWrite,
			Total: u.Cost.Total + v.Cost.Total,
		},
	}
}

// Price is what a model charges per million tokens, in US dollars.
type Price struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
}

// Apply fills in u.TotalTokens and u.Cost from the token counts and returns u.
func (p Price) Apply(u Usage) Usage {
	const perToken = 1.0 / 1_000_000
	u.TotalTokens = u.Input + u.Output + u.CacheRead + u.CacheWrite
	u.Cost = Cost{
		Input:      float64(u.Input) * p.Input * perToken,
		Output:     float64(u.Output) * p.Output * perToken,
		CacheRead:  float64(u.CacheRead) * p.CacheRead * perToken,
		CacheWrite: float64(u.CacheWrite) * p.CacheWrite * perToken,
	}
	u.Cost.Total = u.Cost.Input + u.Cost.Output + u.Cost.CacheRead + u.Cost.CacheWrite
	return u
}
