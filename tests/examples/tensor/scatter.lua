x = torch.Tensor({{0.3227, 0.4294, 0.8476, 0.9414, 0.1159},
                  {0.7338, 0.5185, 0.2947, 0.0578, 0.1273}})
print(x)
y = torch.zeros(3, 5):scatter(1, torch.LongTensor{{1, 2, 3, 1, 1}, {3, 1, 1, 2, 3}}, x)
print(y)
z = torch.zeros(2, 4):scatter(2, torch.LongTensor{{3}, {4}}, 1.23)
print(z)
